from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = _("Players")

    def ready(self) -> None:
        from config import production  # noqa: F401  (registers its deploy check)

        # The schema extension, and the index of each session that signs in, register here.
        from players import schema, sessions  # noqa: F401
