"""Games endpoints. Each view parses its input, calls one service or selector, and renders."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.schema import etagged, refuses
from config.vocabulary.refusals import Refusal
from config.web.idempotency import idempotent
from games import ending, selectors, services
from games.analysis import chart as analysis_chart
from games.analysis import fold_cache
from games.analysis import reads as analysis
from games.api import schema_forms
from games.api import schema_types as t
from games.api import serializers as s
from games.api.conditional import (
    UNMATCHABLE,
    analysis_etag,
    game_etag,
    if_match_version,
    not_modified,
    replay_etag,
)
from games.api.filters import GameFilter
from games.api.pagination import GameCursorPagination
from games.api.render import EventPage, MoveResult, Replay, event_body, game_body, summary_body
from games.kinds import KINDS, Analyst, kind_for
from games.models import Game, GameStatus
from players.auth import request_player

MAX_EVENT_PAGE = 500


def parse(serializer_class: type[serializers.Serializer[None]], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def query_int(request: Request, name: str, default: int | None, minimum: int = 0) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise Refusal.INVALID_QUERY.error(field=name) from None
    if value < minimum:
        raise Refusal.INVALID_QUERY.error(field=name)
    return value


def render_game(request: Request, game: Game, status: int = 200) -> Response:
    return Response(game_body(game, None, request.user), status=status)


class SignedInView(APIView):
    permission_classes = [IsAuthenticated]


class GameListCreateView(generics.ListAPIView[Game]):
    serializer_class = t.GAME_SUMMARY  # the schema's; the answer is render's
    filterset_class = GameFilter
    pagination_class = GameCursorPagination

    def get_queryset(self) -> QuerySet[Game]:
        return selectors.game_queryset()

    @extend_schema(
        summary="List games",
        description="Cursor pages of games, newest first; "
        "filter by `kind`, `status`, `mine=true`, `player`.",
    )
    @refuses(Refusal.INVALID_INPUT, Refusal.INVALID_QUERY)  # a filter's value, the cursor
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.list(request, *args, **kwargs)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset())) or []
        return self.get_paginated_response([summary_body(game, request.user) for game in page])

    @extend_schema(
        summary="Create a game",
        description=(
            "A game of `kind` with its `seats` (`me`, `open`, `hotseat`, `computer`"
            " with a `level`) and `options`; it stays open until its creator starts"
            " it. Its fair dice's server seed is drawn now: the answer's"
            " `fairness.server_seed_hash` shows its SHA-256 before anyone gives a client seed."
            " Takes an `Idempotency-Key`."
        ),
        request=s.GameCreateInput,
        responses={201: t.GAME},
    )
    @idempotent
    @refuses(
        Refusal.UNKNOWN_KIND,
        Refusal.INVALID_OPTION,
        Refusal.INVALID_SEAT_COUNT,
        Refusal.DUPLICATE_ME_SEAT,
        Refusal.UNKNOWN_LEVEL,
        Refusal.INVALID_CLIENT_SEED,
        Refusal.CLIENT_SEED_NOT_ALLOWED,
        Refusal.TOO_MANY_OPEN_GAMES,
        Refusal.TOO_MANY_COMPUTER_GAMES,
    )
    def post(self, request: Request) -> Response:
        data = parse(s.GameCreateInput, request.data)
        game = services.game_create(
            creator=request_player(request),
            kind=data["kind"],
            options=data["options"],
            seats=[services.SeatSpec(**seat) for seat in data["seats"]],
            assistance=data["assistance"],
            turn_clock_seconds=services.turn_clock_choice(data["turn_clock_seconds"]),
        )
        return render_game(request, game, status=201)


class GameDetailView(APIView):
    @extend_schema(
        summary="A game",
        description=(
            "Seats, whose turn, the state a client draws (typed per kind) and the "
            "result. A strong `ETag`; `If-None-Match` answers 304."
        ),
        responses={200: t.GAME, 304: None},
    )
    @etagged
    def get(self, request: Request, game_id: uuid.UUID) -> HttpResponse:
        game = selectors.game_get(game_id)
        etag = game_etag(game, request)
        if not_modified(request, etag):
            response = Response(status=304)
        else:
            response = Response(game_body(game, None, request.user))
        return _tagged(response, etag, vary="Accept-Language, Authorization, Cookie")

    def get_permissions(self) -> list[Any]:
        if self.request.method == "DELETE":
            return [IsAuthenticated()]
        return list(super().get_permissions())

    @extend_schema(
        summary="Cancel an open game",
        description="Its creator cancels a game that has not started.",
        request=None,
        responses={204: None},
    )
    @refuses(Refusal.NOT_CREATOR, Refusal.GAME_NOT_OPEN)
    def delete(self, request: Request, game_id: uuid.UUID) -> Response:
        ending.game_cancel(game_id=game_id, player=request_player(request))
        return Response(status=204)


class GameJoinView(SignedInView):
    @extend_schema(
        summary="Take an open seat",
        description="The first open seat, or the one named by `seat`.",
        request=s.JoinInput,
        responses=t.GAME,
    )
    @idempotent
    @refuses(
        Refusal.GAME_NOT_OPEN,
        Refusal.ALREADY_SEATED,
        Refusal.NO_OPEN_SEAT,
        Refusal.INVALID_CLIENT_SEED,
    )
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        data = parse(s.JoinInput, request.data)
        game = services.game_join(
            game_id=game_id,
            player=request_player(request),
            seat_index=data["seat"],
            client_seed=data["client_seed"],
        )
        return render_game(request, game)


class GameStartView(SignedInView):
    @extend_schema(
        summary="Start the game",
        description="The creator starts the game once every player seat is taken.",
        request=None,
        responses=t.GAME,
    )
    @idempotent
    @refuses(Refusal.NOT_CREATOR, Refusal.GAME_NOT_OPEN, Refusal.SEATS_NOT_FILLED)
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        game = services.game_start(game_id=game_id, player=request_player(request))
        return render_game(request, game)


def _kinds_refusals() -> tuple[Refusal, ...]:
    """The refusals of a move that each kind's rules add (for the schema), each once."""
    codes = dict.fromkeys(code for kind in KINDS.values() for code in kind.refusals)
    return tuple(Refusal.of_code(code) for code in codes)


class GameMoveView(SignedInView):
    @extend_schema(
        summary="Play a move",
        description=(
            "A move of the game's kind (typed per move `type`). `expected_version` "
            "(409 `stale_version`) or `If-Match` with the game's `ETag` (412 "
            "`precondition_failed`) make it conditional. `client_seed` gives the seat's client "
            "seed for the fair dice, until its first roll (409 `client_seed_fixed` after it)."
        ),
        request=t.MOVE,
        responses={201: t.MoveResultSerializer},
        parameters=[
            OpenApiParameter(
                "If-Match",
                str,
                OpenApiParameter.HEADER,
                description="The game's ETag (or version): the same as expected_version",
            )
        ],
    )
    @idempotent
    @refuses(
        Refusal.NOT_A_SEAT_HOLDER,
        Refusal.NOT_YOUR_TURN,
        Refusal.STALE_VERSION,
        Refusal.PRECONDITION_FAILED,
        Refusal.INVALID_IF_MATCH,
        Refusal.CONFLICTING_VERSIONS,
        Refusal.GAME_NOT_STARTED,
        Refusal.GAME_FINISHED,
        Refusal.UNKNOWN_MOVE,
        *_kinds_refusals(),
        Refusal.INVALID_CLIENT_SEED,
        Refusal.CLIENT_SEED_FIXED,
    )
    @etagged
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        data = s.MoveInput.read(request.data)
        expected = data["expected_version"]
        from_header = if_match_version(request)
        if expected is not None and from_header not in (None, UNMATCHABLE, expected):
            raise Refusal.CONFLICTING_VERSIONS.error()
        moved = services.game_move(
            game_id=game_id,
            command=data["command"],
            actor=request_player(request),
            expected_version=expected,
            if_match=from_header,
        )
        return render_move(request, moved)


def render_move(request: Request, moved: services.MoveResult, status: int = 201) -> Response:
    # Rendered from what the move holds: the game with its seats and accounts, and the rules
    # state it folded; nothing is read again.
    game = moved.game
    body: MoveResult = {
        "events": [event_body(event, game.kind) for event in moved.events],
        "game": game_body(game, moved.state, request.user),
    }
    response = Response(body, status=status)
    response["ETag"] = game_etag(game, request)
    return response


class GameResignView(SignedInView):
    """A seated player leaves the game: in a game of two the other seat wins; in a larger game
    the seat drops out, its score frozen, placed after the seats still playing."""

    @extend_schema(
        summary="Resign",
        request=s.ResignInput,
        responses={201: t.MoveResultSerializer},
    )
    @idempotent
    @refuses(
        Refusal.NOT_A_SEAT_HOLDER,
        Refusal.SEAT_OUT,
        Refusal.STALE_VERSION,
        Refusal.GAME_NOT_STARTED,
        Refusal.GAME_FINISHED,
    )
    @etagged
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        data = parse(s.ResignInput, request.data)
        moved = ending.game_resign(
            game_id=game_id,
            player=request_player(request),
            seat=data["seat"],
            expected_version=data["expected_version"],
        )
        return render_move(request, moved)


class GameAbortView(SignedInView):
    """Call the game off before any dice are thrown in it: nobody wins, nothing is rated (not in
    tournaments). Once dice are thrown, leaving is resigning."""

    @extend_schema(
        summary="Abort the game",
        request=None,
        responses={201: t.MoveResultSerializer},
    )
    @idempotent
    @refuses(
        Refusal.NOT_A_SEAT_HOLDER,
        Refusal.ABORT_TOO_LATE,
        Refusal.TOURNAMENT_GAME,
        Refusal.GAME_NOT_STARTED,
        Refusal.GAME_FINISHED,
    )
    @etagged
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        moved = ending.game_abort(game_id=game_id, player=request_player(request))
        return render_move(request, moved)


class GameClaimView(SignedInView):
    """The seat to play has been idle past ``CLAIM_GRACE_SECONDS``: another seated player claims
    it (two seats: the win; more: the idle seat leaves the game). Not in a game with a turn
    clock, where the clock decides."""

    @extend_schema(
        summary="Claim an idle seat",
        request=None,
        responses={201: t.MoveResultSerializer},
    )
    @idempotent
    @refuses(
        Refusal.NOT_A_SEAT_HOLDER,
        Refusal.NOT_CLAIMABLE,
        Refusal.CLAIM_NOT_ALLOWED,
        Refusal.CLAIM_TOO_EARLY,
        Refusal.SEAT_OUT,
        Refusal.GAME_NOT_STARTED,
        Refusal.GAME_FINISHED,
    )
    @etagged
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        moved = ending.game_claim(game_id=game_id, player=request_player(request))
        return render_move(request, moved)


class GameLeaveView(SignedInView):
    """Give back the seat you took in an open game."""

    @extend_schema(
        summary="Leave an open game",
        request=None,
        responses=t.GAME,
    )
    @idempotent
    @refuses(Refusal.NOT_A_SEAT_HOLDER, Refusal.GAME_NOT_OPEN, Refusal.CREATOR_CANNOT_LEAVE)
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        game = ending.game_leave(game_id=game_id, player=request_player(request))
        return render_game(request, game)


class GameEventsView(APIView):
    # Its long-poll and SSE forms are the stream tier's (games.streams): the proxy routes them.
    @extend_schema(
        summary="The event log",
        description=(
            "Events after `after`, oldest first. With `wait` the stream tier holds "
            "the request until one exists (long-poll); with `Accept: "
            "text/event-stream` it is a Server-Sent Events stream (see "
            "`games/{id}/stream/`)."
        ),
        parameters=[
            OpenApiParameter("wait", float, description="Long-poll: seconds to wait (<= 30)"),
            OpenApiParameter("after", int, description="Only events with a greater seq"),
            OpenApiParameter("limit", int, description=f"At most this many (<= {MAX_EVENT_PAGE})"),
        ],
        responses=t.EventPageSerializer,
    )
    @refuses(Refusal.INVALID_QUERY)
    def get(self, request: Request, game_id: uuid.UUID) -> Response:
        game = selectors.game_get(game_id)
        after = query_int(request, "after", 0)
        limit = min(query_int(request, "limit", MAX_EVENT_PAGE, minimum=1) or 1, MAX_EVENT_PAGE)
        events = selectors.game_events(game, after=after or 0, limit=limit).select_related("actor")
        page: EventPage = {
            "version": game.version,
            "events": [event_body(e, game.kind) for e in events],
        }
        return Response(page)


ANALYSIS_REFUSALS = (
    Refusal.GAME_NOT_FOUND,
    Refusal.GAME_NOT_STARTED,
    Refusal.ANALYSIS_AFTER_THE_GAME,
    Refusal.ANALYSIS_NOT_AVAILABLE,
)


def _tagged(response: HttpResponse, etag: str, vary: str = "Accept-Language") -> HttpResponse:
    # Answers vary with the request's language (``?lang=`` is in the URL itself), a game's with
    # its viewer too.
    response["ETag"] = etag
    response["Vary"] = vary
    return response


def _analysed(game_id: uuid.UUID) -> tuple[Game, Analyst, list[str], str]:
    game, analyst = analysis.game_to_analyse(game_id)
    names = analysis.seat_names(game)
    return game, analyst, names, analysis_etag(game, names)


class GameReplayView(APIView):
    throttle_scope = "expensive"

    @extend_schema(
        summary="The state at an event",
        description=(
            "The game's state as it was after event `at` (by default the latest). Each state is "
            "replayed once and kept (a finished game's for 30 days); a strong `ETag`: "
            "`If-None-Match` answers 304. Throttled by the `expensive` rate."
        ),
        parameters=[OpenApiParameter("at", int, description="The seq to replay up to")],
        responses={200: t.ReplaySerializer, 304: None},
    )
    @refuses(Refusal.INVALID_SEQ, Refusal.INVALID_QUERY)
    @etagged
    def get(self, request: Request, game_id: uuid.UUID) -> HttpResponse:
        game = selectors.game_get(game_id)
        at = query_int(request, "at", game.version)
        assert at is not None  # the default is a version
        if not 0 <= at <= game.version:
            raise Refusal.INVALID_SEQ.error()
        etag = replay_etag(game, at)
        if not_modified(request, etag):
            return _tagged(Response(status=304), etag)
        state = fold_cache.game_state_at(game, at)
        presented = None if state is None else kind_for(game.kind).presenter.present_rules(state)
        body: Replay = {"at": at, "version": game.version, "state": presented}
        return _tagged(Response(body), etag)


class GamePreviewView(APIView):
    @extend_schema(
        summary="Preview set-aside dice",
        description=(
            "What setting these dice of the current roll aside would score; nothing is recorded. "
            "Only in the kinds whose `preview` is true in `GET kinds/`."
        ),
        parameters=[
            OpenApiParameter("keep", str, description="Positions in the current roll, e.g. 0,2,5")
        ],
        responses=t.PREVIEW,
    )
    @refuses(
        Refusal.PREVIEW_NOT_AVAILABLE,
        Refusal.ASSISTANCE_OFF,
        Refusal.GAME_NOT_ACTIVE,
        Refusal.INVALID_DICE_INDICES,
        Refusal.TOO_MANY_DICE,
    )
    def get(self, request: Request, game_id: uuid.UUID) -> Response:
        game = selectors.game_get(game_id)
        preview = kind_for(game.kind).preview
        if preview is None:
            raise Refusal.PREVIEW_NOT_AVAILABLE.error()
        if not game.assistance:
            raise Refusal.ASSISTANCE_OFF.error()
        if game.status != GameStatus.ACTIVE or game.state is None:
            raise Refusal.GAME_NOT_ACTIVE.error()
        parts = [part for part in request.query_params.get("keep", "").split(",") if part.strip()]
        dice = kind_for(game.kind).dice
        if len(parts) > dice:  # its length before its items, as a move's keep
            raise Refusal.TOO_MANY_DICE.error(field="keep", params={"max": dice})
        try:
            keep = [int(part) for part in parts]
        except ValueError:
            raise Refusal.INVALID_DICE_INDICES.error(field="keep") from None
        return Response(preview(game.state, keep))


class GameHintView(SignedInView):
    @extend_schema(
        summary="The computer's choice",
        description="The move the computer would play in your position, with its expected value.",
        responses=t.HintSerializer,
    )
    @refuses(
        Refusal.ASSISTANCE_OFF,
        Refusal.GAME_NOT_STARTED,
        Refusal.GAME_FINISHED,
        Refusal.NOT_A_SEAT_HOLDER,
        Refusal.NOT_YOUR_TURN,
    )
    def get(self, request: Request, game_id: uuid.UUID) -> Response:
        hint = selectors.game_hint(game_id=game_id, player=request_player(request))
        return Response(hint)


class GameAnalysisView(APIView):
    throttle_scope = "expensive"

    @extend_schema(
        summary="Luck against skill",
        description=(
            "Per seat and per decision: the move made, the best move, their expected values and "
            "the loss; per seat the expected start, luck, skill loss, accuracy and final score "
            "(final = expected start + luck - skill loss). For a finished game; during play only "
            "where the game allows assistance. The log is analysed once per game version and "
            "kept (a finished game's for 30 days); a strong `ETag`: `If-None-Match` answers 304. "
            "Throttled by the `expensive` rate."
        ),
        responses={200: schema_forms.serializer(analysis.Analysis), 304: None},
    )
    @refuses(*ANALYSIS_REFUSALS)
    @etagged
    def get(self, request: Request, game_id: uuid.UUID) -> HttpResponse:
        game, analyst, names, etag = _analysed(game_id)
        if not_modified(request, etag):
            return _tagged(Response(status=304), etag)
        kept = analysis.game_kept(game, analyst)
        renderer = request.accepted_renderer
        if not isinstance(renderer, JSONRenderer):  # the browsable API (development)
            return _tagged(Response(analysis.body(game, analyst, kept, names)), etag)
        # The long lists as they were written once; only the head is written now.
        head = renderer.render(analysis.head(game, analyst, kept, names))
        written = analysis.written(head, kept)
        return _tagged(HttpResponse(written, content_type=renderer.media_type), etag)


class GameAnalysisChartView(APIView):
    throttle_scope = "expensive"

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # A browser's <img> asks for images: the refusals still answer as JSON.
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        operation_id="games_analysis_svg_retrieve",
        summary="The analysis as a picture",
        description=(
            "An SVG of each seat's value turn by turn, as the kind's analysis measures it (an "
            "expected final score, or a chance to win), with luck, skill loss and final score. "
            "Drawn from the analysis kept per game version; a strong `ETag`: `If-None-Match` "
            "answers 304. Throttled by the `expensive` rate."
        ),
        responses={(200, "image/svg+xml"): OpenApiTypes.STR, 304: None},
    )
    @refuses(*ANALYSIS_REFUSALS)
    @etagged
    def get(self, request: Request, game_id: uuid.UUID) -> HttpResponse:
        game, analyst, names, etag = _analysed(game_id)
        if not_modified(request, etag):
            return _tagged(HttpResponse(status=304), etag)
        kept = analysis.game_kept(game, analyst)
        svg = analysis_chart.render(game.kind, kept.chart, kept.lines, names)
        return _tagged(HttpResponse(svg, content_type="image/svg+xml; charset=utf-8"), etag)
