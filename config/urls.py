from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.observability import health, metrics
from config.vocabulary.error_catalogue import ErrorDetailView, ErrorListView
from config.web.internal import internal_only
from games import dashboard, home, webclient

# The games' routes first: Django tries each pattern in turn, and a move is the busiest request.
api_v1: list[URLPattern | URLResolver] = [
    path("", include("games.api.urls")),
    path("", include("players.urls")),
    path("", include("games.accounts.urls")),
    path("", include("games.tournaments.urls")),
    path("", include("games.matchmaking.urls")),
    path("errors/", ErrorListView.as_view(), name="error-list"),
    path("errors/<str:code>/", ErrorDetailView.as_view(), name="error-detail"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("", home.home, name="home"),
    path("health/live", health.live, name="health-live"),
    path("health/ready", health.ready, name="health-ready"),
    path("health/", health.ready, name="health"),
    path("health/deep", health.deep, name="health-deep"),
    path("metrics", internal_only(metrics.metrics), name="metrics"),
    path("admin/dashboard/", admin.site.admin_view(dashboard.view), name="admin-dashboard"),
    path("admin/", admin.site.urls),
    path("api-auth/", include("rest_framework.urls")),
    path("play/", webclient.play, name="play"),
]

# 503 with Retry-After when the exception is the database out of reach, else Django's own 500.
handler500 = "config.web.outage.server_error"
