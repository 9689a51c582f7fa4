from django.urls import path

from games.api import kinds, views

urlpatterns = [
    # First: the busiest route (patterns are tried in turn).
    path("games/<uuid:game_id>/moves/", views.GameMoveView.as_view(), name="game-moves"),
    path("kinds/", kinds.KindListView.as_view(), name="kind-list"),
    path("games/", views.GameListCreateView.as_view(), name="game-list"),
    path("games/<uuid:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/join/", views.GameJoinView.as_view(), name="game-join"),
    path("games/<uuid:game_id>/start/", views.GameStartView.as_view(), name="game-start"),
    path("games/<uuid:game_id>/resign/", views.GameResignView.as_view(), name="game-resign"),
    path("games/<uuid:game_id>/abort/", views.GameAbortView.as_view(), name="game-abort"),
    path("games/<uuid:game_id>/claim/", views.GameClaimView.as_view(), name="game-claim"),
    path("games/<uuid:game_id>/leave/", views.GameLeaveView.as_view(), name="game-leave"),
    # Pages of the log. Its SSE form and long-poll (``?wait=``), like ``stream/`` and
    # ``games/{id}/stream/``, are the stream tier's (games.streams): the front proxy routes them.
    path("games/<uuid:game_id>/events/", views.GameEventsView.as_view(), name="game-events"),
    path("games/<uuid:game_id>/replay/", views.GameReplayView.as_view(), name="game-replay"),
    path("games/<uuid:game_id>/hint/", views.GameHintView.as_view(), name="game-hint"),
    path("games/<uuid:game_id>/preview/", views.GamePreviewView.as_view(), name="game-preview"),
    path("games/<uuid:game_id>/analysis/", views.GameAnalysisView.as_view(), name="game-analysis"),
    path(
        "games/<uuid:game_id>/analysis.svg",
        views.GameAnalysisChartView.as_view(),
        name="game-analysis-chart",
    ),
]
