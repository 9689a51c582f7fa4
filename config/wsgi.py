import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from config.production import refuse_unsafe_settings  # noqa: E402  (needs the settings)

refuse_unsafe_settings()
