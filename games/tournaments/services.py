"""Every write on tournaments, each one transaction. Where two runs could race (two schedulers,
a game ending while beat ticks) the tournament's row is locked, and the status check after the
lock makes starting, advancing and finishing happen exactly once."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Required, TypedDict, Unpack

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.vocabulary.refusals import Refusal
from games import services as game_services
from games.ending import game_resign
from games.followups import live, notes
from games.kinds import kind_for
from games.models import GameId, GameStatus
from games.rules import RuleError
from games.rules.fairness import is_client_seed
from games.tournaments import pairing as p
from games.tournaments.models import (
    SETTINGS,
    Entrant,
    Tournament,
    TournamentFormat,
    TournamentGame,
    TournamentRound,
    TournamentStatus,
)
from games.tournaments.recurrence import next_occurrence, validate_cron
from games.tournaments.results import pairing_history, ratings_of, table_results
from players.models import Player
from players.services import player_hold

OPEN_FOR_ENTRY = (TournamentStatus.SCHEDULED, TournamentStatus.REGISTRATION)


def _lock(
    tournament_id: int | str, statuses: Sequence[str] = (), refusal: Refusal | None = None
) -> Tournament:
    """The tournament's row, locked; refused by ``refusal`` unless its status is in ``statuses``."""
    try:
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError):
        raise Refusal.TOURNAMENT_NOT_FOUND.error() from None
    if refusal is not None and tournament.status not in statuses:
        raise refusal.error()
    return tournament


class TournamentSettings(TypedDict, total=False):
    """What an organiser sets (``models.SETTINGS``); those left out take the model's defaults."""

    name: Required[str]
    kind: Required[str]
    format: Required[str]
    starts_at: Required[datetime]
    rounds: int | None
    table_size: int
    game_options: dict[str, Any]
    registration_opens_at: datetime | None
    min_entrants: int
    max_entrants: int
    rated: bool
    turn_clock_seconds: int
    recurrence: str


@transaction.atomic
def tournament_create(
    *, created_by: Player, computers: Sequence[str] = (), **fields: Unpack[TournamentSettings]
) -> Tournament:
    """Schedule a tournament, with its computer entrants (by level) if any."""
    tournament = Tournament(**fields, created_by=created_by)
    tournament_validate(tournament)
    tournament.save()
    for level in computers:
        _add_computer(tournament, level)
    return tournament


def tournament_validate(tournament: Tournament) -> None:
    """The checks shared by the API, the admin and the next edition of a recurring tournament."""
    try:
        kind_for(tournament.kind).engine.options_from_wire(tournament.game_options)
    except RuleError as exc:
        # The rules' field, as the tournament's form names it (its params are the game's).
        field = f"game_{exc.field or 'options'}"
        raise Refusal.of_code(exc.code).error(field=field) from None
    if not tournament.turn_clock_seconds:  # an idle seat would hold the whole round
        raise Refusal.INVALID_TURN_CLOCK.error()
    if tournament.format == TournamentFormat.SWISS and not tournament.rounds:
        raise Refusal.ROUNDS_REQUIRED.error()
    if not 2 <= tournament.table_size <= min(kind_for(tournament.kind).seats.most, 6):
        raise Refusal.INVALID_TABLE_SIZE.error()
    if tournament.table_size > 2 and tournament.format != TournamentFormat.SWISS:
        raise Refusal.MULTI_SEAT_SWISS_ONLY.error()
    if not 2 <= tournament.min_entrants <= tournament.max_entrants:
        raise Refusal.INVALID_ENTRANT_BOUNDS.error()
    if tournament.recurrence:
        validate_cron(tournament.recurrence)


def _active(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.filter(withdrawn_at__isnull=True).order_by("id"))


@transaction.atomic
def tournament_register(
    *, tournament_id: int | str, player: Player, client_seed: str = ""
) -> Entrant:
    """Enter ``player`` (again, after a withdrawal); ``client_seed``: its seat's at its tables."""
    if client_seed and not is_client_seed(client_seed):
        raise Refusal.INVALID_CLIENT_SEED.error(field="client_seed")
    player_hold(player=player)  # before the tournament's row, as a ban takes them
    tournament = _lock(tournament_id)
    now = timezone.now()
    if tournament.status not in OPEN_FOR_ENTRY or tournament.starts_at <= now:
        raise Refusal.REGISTRATION_CLOSED.error()
    opens = tournament.registration_opens_at
    if opens is not None and opens > now:
        raise Refusal.REGISTRATION_NOT_OPEN.error()
    entrant = tournament.entrants.filter(player=player).first()
    if entrant is not None and entrant.withdrawn_at is None:
        raise Refusal.ALREADY_REGISTERED.error()
    if len(_active(tournament)) >= tournament.max_entrants:
        raise Refusal.TOURNAMENT_FULL.error()
    if entrant is None:
        return Entrant.objects.create(tournament=tournament, player=player, client_seed=client_seed)
    entrant.withdrawn_at = None
    entrant.client_seed = client_seed
    entrant.save(update_fields=["withdrawn_at", "client_seed"])
    return entrant


@transaction.atomic
def tournament_withdraw(*, tournament_id: int | str, player: Player) -> None:
    tournament = _lock(tournament_id, OPEN_FOR_ENTRY, Refusal.REGISTRATION_CLOSED)
    updated = tournament.entrants.filter(player=player, withdrawn_at__isnull=True).update(
        withdrawn_at=timezone.now()
    )
    if not updated:
        raise Refusal.NOT_REGISTERED.error()


@transaction.atomic
def tournament_forfeit_entry(*, tournament_id: int | str, player: Player) -> bool:
    """Forfeit a cut-off account's entry in a running (or paused) tournament; False if none. It
    stays in the pairing (it was seeded), so the schedule and bracket stand, and each
    later table of its resigns as it opens; its games in play are the caller's to end."""
    tournament = _lock(tournament_id)
    if tournament.status != TournamentStatus.RUNNING:
        return False
    entries = tournament.entrants.filter(player=player, withdrawn_at__isnull=True)
    return bool(entries.update(withdrawn_at=timezone.now()))


@transaction.atomic
def tournament_add_computer(
    *, tournament_id: int | str, level: str = "", name: str = ""
) -> Entrant:
    tournament = _lock(tournament_id, OPEN_FOR_ENTRY, Refusal.REGISTRATION_CLOSED)
    return _add_computer(tournament, level, name)


def _add_computer(tournament: Tournament, level: str, name: str = "") -> Entrant:
    known = kind_for(tournament.kind).level_for(level)
    if known is None:
        raise Refusal.UNKNOWN_LEVEL.error(field="level")
    if len(_active(tournament)) >= tournament.max_entrants:
        raise Refusal.TOURNAMENT_FULL.error()
    return Entrant.objects.create(tournament=tournament, level=known, name=name)


@transaction.atomic
def tournament_cancel(*, tournament_id: int | str, reason: str) -> Tournament:
    tournament = _lock(tournament_id, OPEN_FOR_ENTRY, Refusal.CANNOT_CANCEL)
    tournament.status = TournamentStatus.CANCELLED
    tournament.cancel_reason = reason[:200]
    tournament.save(update_fields=["status", "cancel_reason"])
    return tournament


@transaction.atomic
def tournament_start(*, tournament_id: int | str, now: datetime | None = None) -> bool:
    """Start a due tournament (cancel it under the minimum); False if another run did first."""
    now = now or timezone.now()
    tournament = _lock(tournament_id)
    if tournament.status not in OPEN_FOR_ENTRY:
        return False
    _schedule_next_edition(tournament)
    entrants = _active(tournament)
    if len(entrants) < tournament.min_entrants:
        tournament.status = TournamentStatus.CANCELLED
        tournament.cancel_reason = str(
            _("Not enough entrants: %(count)d registered, %(minimum)d needed.")
            % {"count": len(entrants), "minimum": tournament.min_entrants}
        )
        tournament.save(update_fields=["status", "cancel_reason"])
        return True
    ratings = ratings_of(tournament, entrants)
    for entrant in entrants:
        entrant.seed_rating = ratings[entrant.pk]
    Entrant.objects.bulk_update(entrants, ["seed_rating"])
    tournament.status = TournamentStatus.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    _open_next_round(tournament)
    return True


@transaction.atomic
def tournament_advance(*, tournament_id: int | str) -> bool:
    """Once every game of the current round is over: replay tied knockout tables, open the next
    round, or finish the tournament. False if there was nothing to do yet (or it is paused)."""
    tournament = _lock(tournament_id)
    if tournament.status != TournamentStatus.RUNNING or tournament.paused_at is not None:
        return False  # a paused tournament opens nothing: resuming advances it
    current = tournament.round_set.get(number=tournament.current_round)
    latest = _latest_games(current)
    if any(game.game.status != GameStatus.FINISHED for game in latest):
        return False
    if tournament.format == TournamentFormat.KNOCKOUT:
        # A table tied again after its last allowed replay is decided by seed (pairing_history).
        tied = [
            g
            for g in latest
            if g.replay < p.MAX_KNOCKOUT_REPLAYS
            and p.knockout_winner(table_results([g])[0]) is None
        ]
        for tied_game in tied:
            _open_table(
                tournament, current, tied_game.table, tied_game.entrant_ids, tied_game.replay + 1
            )
        if tied:
            return True
    current.finished_at = timezone.now()
    current.save(update_fields=["finished_at"])
    _open_next_round(tournament)
    return True


def tournament_table_finished(*, game_id: GameId | str) -> bool:
    """A table's game is over (``jobs.game_finished``): its tournament may advance."""
    tournament_id = (
        TournamentGame.objects.filter(game_id=game_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    return tournament_id is not None and tournament_advance(tournament_id=tournament_id)


def _next_round(tournament: Tournament) -> p.Round | None:
    """The next round as paired (the first, at the start), or None once the last is played."""
    number = tournament.current_round + 1
    history, results = pairing_history(tournament)
    seeded = list(tournament.entrants.filter(seed_rating__isnull=False).order_by("id"))
    ids = [entrant.pk for entrant in seeded]
    ratings = {entrant.pk: entrant.seed_rating or 0.0 for entrant in seeded}
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        schedule = p.round_robin_rounds(ids)
        return schedule[number - 1] if number <= len(schedule) else None
    if tournament.format == TournamentFormat.SWISS:
        if number > (tournament.rounds or 0):
            return None
        return p.swiss_round(
            ids, history, results, number, table_size=tournament.table_size, ratings=ratings
        )
    if not history:
        return p.knockout_bracket(ids, ratings)
    return p.knockout_next_round(history[-1], results, number)


def _latest_games(round_: TournamentRound) -> list[TournamentGame]:
    latest: dict[int, TournamentGame] = {}
    for game in round_.games.select_related("game").order_by("table", "replay"):
        latest[game.table] = game
    return list(latest.values())


def _open_next_round(tournament: Tournament) -> None:
    following = _next_round(tournament)
    if following is not None:
        return _open_round(tournament, following)
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])


def _open_round(tournament: Tournament, pairing_round: p.Round) -> None:
    tournament.current_round = pairing_round.number
    tournament.save(update_fields=["current_round"])
    round_ = TournamentRound.objects.create(tournament=tournament, number=pairing_round.number)
    round_.byes.set([bye.entrant for bye in pairing_round.byes])
    opened = [
        _open_table(tournament, round_, table, list(seats.entrants), 0)
        for table, seats in enumerate(pairing_round.tables)
    ]
    live.publish_on_commit(round_started_notes(tournament, pairing_round.number, opened))


def round_started_notes(
    tournament: Tournament, number: int, games: Sequence[TournamentGame]
) -> list[notes.PlayerNote]:
    """A note for each account seated in the new round, for its player stream."""
    entrants = Entrant.objects.in_bulk([e for g in games for e in g.entrant_ids])
    told: list[notes.PlayerNote] = []
    for game in games:
        for seat, entrant_id in enumerate(game.entrant_ids):
            player_id = entrants[entrant_id].player_id
            if player_id is not None:
                note = notes.TournamentRoundStarted(
                    tournament=tournament.pk, round=number, game=str(game.game_id), seat=seat
                )
                told.append((player_id, note))
    return told


def _open_table(
    tournament: Tournament,
    round_: TournamentRound,
    table: int,
    entrant_ids: Sequence[int],
    replay: int,
) -> TournamentGame:
    entrants = Entrant.objects.select_related("player").in_bulk(entrant_ids)
    seated = [entrants[entrant_id] for entrant_id in entrant_ids]
    specs = [
        game_services.SeatSpec(type="computer", level=entrant.level, name=entrant.display_name)
        if entrant.is_computer
        else game_services.SeatSpec(
            type="player", player=entrant.player, client_seed=entrant.client_seed
        )
        for entrant in seated
    ]
    game = game_services.game_create(
        creator=tournament.created_by,
        kind=tournament.kind,
        seats=specs,
        options=tournament.game_options,
        turn_clock_seconds=tournament.turn_clock_seconds or None,
        rated=tournament.rated,
        assistance=False,  # a competition: no computer help, rated or not
        by_account=False,
    )
    game_services.game_start(game_id=game.pk, player=tournament.created_by)
    _forfeit_withdrawn(game.pk, seated)
    return TournamentGame.objects.create(
        round=round_, table=table, replay=replay, game=game, entrant_ids=list(entrant_ids)
    )


def _forfeit_withdrawn(game_id: GameId, seated: Sequence[Entrant]) -> None:
    """A withdrawn entrant's seat resigns as the game starts, through the move path: waiting on
    its clock would hold up the round. With every seat withdrawn the last one left wins."""
    for seat, entrant in enumerate(seated):
        if entrant.withdrawn_at is None or entrant.player is None:
            continue
        result = game_resign(game_id=game_id, player=entrant.player, seat=seat)
        if result.game.status != GameStatus.ACTIVE:
            return


def _schedule_next_edition(tournament: Tournament) -> None:
    if not tournament.recurrence or Tournament.objects.filter(previous_edition=tournament).exists():
        return
    starts = next_occurrence(tournament.recurrence, after=tournament.starts_at)
    opens = None
    if tournament.registration_opens_at is not None:
        opens = starts - (tournament.starts_at - tournament.registration_opens_at)
    Tournament.objects.create(
        **{field: getattr(tournament, field) for field in SETTINGS}
        | {"starts_at": starts, "registration_opens_at": opens},
        previous_edition=tournament,
        created_by=tournament.created_by,
    )


def tournaments_tick(*, now: datetime | None = None) -> dict[str, int]:
    """Beat's: open registrations, start due tournaments, advance running ones whose round is
    over (a catch-up for the task sent when a game ends)."""
    now = now or timezone.now()
    opened = (
        Tournament.objects.filter(status=TournamentStatus.SCHEDULED, starts_at__gt=now)
        .exclude(registration_opens_at__gt=now)
        .update(status=TournamentStatus.REGISTRATION)
    )
    started = 0
    due = Tournament.objects.filter(status__in=OPEN_FOR_ENTRY, starts_at__lte=now)
    for tournament_id in due.values_list("pk", flat=True):
        started += tournament_start(tournament_id=tournament_id, now=now)
    advanced = 0
    running = Tournament.objects.filter(status=TournamentStatus.RUNNING, paused_at__isnull=True)
    for tournament_id in running.values_list("pk", flat=True):
        advanced += tournament_advance(tournament_id=tournament_id)
    return {"opened": opened, "started": started, "advanced": advanced}
