from django.urls import path

from games import streams
from games.api import views

urlpatterns = [
    path("games/", views.GameListCreateView.as_view(), name="game-list"),
    path("games/<uuid:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/join/", views.GameJoinView.as_view(), name="game-join"),
    path("games/<uuid:game_id>/start/", views.GameStartView.as_view(), name="game-start"),
    path("games/<uuid:game_id>/moves/", views.GameMoveView.as_view(), name="game-moves"),
    path("games/<uuid:game_id>/events/", streams.game_events, name="game-events"),
    path("games/<uuid:game_id>/stream/", streams.game_stream, name="game-stream"),
    path("stream/", streams.player_stream, name="player-stream"),
    path("games/<uuid:game_id>/replay/", views.GameReplayView.as_view(), name="game-replay"),
    path("games/<uuid:game_id>/hint/", views.GameHintView.as_view(), name="game-hint"),
    path("games/<uuid:game_id>/preview/", views.GamePreviewView.as_view(), name="game-preview"),
]
