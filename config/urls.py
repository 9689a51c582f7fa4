from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config import health, metrics

api_v1: list[URLPattern | URLResolver] = [
    path("", include("players.urls")),
    path("", include("games.api.urls")),
    path("", include("games.tournaments.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
]

urlpatterns = [
    path("health/live", health.live, name="health-live"),
    path("health/", health.ready, name="health"),
    path("metrics", metrics.metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api-auth/", include("rest_framework.urls")),
]
