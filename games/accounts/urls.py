from django.urls import path

from games.accounts import api, export_api, profiles, stats

urlpatterns = [
    path("accounts/me/", api.MeView.as_view(), name="account-me"),
    path("accounts/me/export/", export_api.ExportView.as_view(), name="account-export"),
    path(
        "accounts/me/export/download/",
        export_api.ExportDownloadView.as_view(),
        name="account-export-download",
    ),
    path("leaderboards/<str:kind>/", profiles.LeaderboardView.as_view(), name="leaderboard"),
    path("players/<str:username>/", profiles.ProfileView.as_view(), name="player-profile"),
    path("players/<str:username>/stats/", stats.StatsView.as_view(), name="player-stats"),
]
