from django.urls import path

from players import api, credentials_api

# accounts/me/, the export, profiles and leaderboards read games too: games.accounts.urls.
urlpatterns = [
    path("accounts/register/", api.RegisterView.as_view(), name="account-register"),
    path("accounts/token/", api.TokenObtainView.as_view(), name="account-token"),
    path("accounts/token/revoke/", api.TokenRevokeView.as_view(), name="account-token-revoke"),
    path("accounts/password/", credentials_api.PasswordView.as_view(), name="account-password"),
    path("accounts/tokens/", credentials_api.TokenListView.as_view(), name="account-tokens"),
    path(
        "accounts/tokens/<str:token_id>/",
        credentials_api.TokenDetailView.as_view(),
        name="account-token-detail",
    ),
    path("stream/tickets/", api.StreamTicketView.as_view(), name="stream-ticket"),
]
