from django.urls import path

from players import api, credentials_api, export, profiles, stats

urlpatterns = [
    path("accounts/register/", api.RegisterView.as_view(), name="account-register"),
    path("accounts/token/", api.TokenObtainView.as_view(), name="account-token"),
    path("accounts/token/revoke/", api.TokenRevokeView.as_view(), name="account-token-revoke"),
    path("accounts/me/", api.MeView.as_view(), name="account-me"),
    path("accounts/me/export/", export.ExportView.as_view(), name="account-export"),
    path("accounts/password/", credentials_api.PasswordView.as_view(), name="account-password"),
    path("accounts/tokens/", credentials_api.TokenListView.as_view(), name="account-tokens"),
    path(
        "accounts/tokens/<str:token_id>/",
        credentials_api.TokenDetailView.as_view(),
        name="account-token-detail",
    ),
    path("stream/tickets/", api.StreamTicketView.as_view(), name="stream-ticket"),
]

urlpatterns += [
    path("leaderboards/<str:kind>/", profiles.LeaderboardView.as_view(), name="leaderboard"),
    path("players/<str:username>/", profiles.ProfileView.as_view(), name="player-profile"),
    path("players/<str:username>/stats/", stats.StatsView.as_view(), name="player-stats"),
]
