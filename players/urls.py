from django.urls import path

from players import api

urlpatterns = [
    path("accounts/register/", api.RegisterView.as_view(), name="account-register"),
    path("accounts/token/", api.TokenObtainView.as_view(), name="account-token"),
    path("accounts/token/revoke/", api.TokenRevokeView.as_view(), name="account-token-revoke"),
    path("accounts/me/", api.MeView.as_view(), name="account-me"),
]
