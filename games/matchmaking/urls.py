from django.urls import path

from games.matchmaking import api

urlpatterns = [
    path("seeks/", api.SeekListCreateView.as_view(), name="seek-list"),
    path("seeks/<int:seek_id>/", api.SeekDetailView.as_view(), name="seek-detail"),
    path("games/<uuid:game_id>/rematch/", api.GameRematchView.as_view(), name="game-rematch"),
]
