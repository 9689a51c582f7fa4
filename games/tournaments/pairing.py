"""Tournament rounds: round robin, Swiss and knockout pairings. Pure Python, no Django.

Entrants are opaque ids. A round is tables (one game each, seat 0 plays first) and byes; a result
gives, per seat, a place (1 = first, equal totals share one) and a score total. Points
(``placement_points``, shared with the standings) are exact ``Fraction`` values.

Multi-seat Swiss rounds (``table_size`` 3-6) give no bye but to a lone entrant: the field is split
into the fewest tables of at most ``table_size`` seats, sizes differing by at most one (the bigger
on the top boards, unless avoiding repeats moves them), never below two seats.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, groupby

EntrantId = int

#: Search nodes a multi-seat Swiss round may spend looking for a table plan without repeats.
SEARCH_BUDGET = 20_000


@dataclass(frozen=True)
class Table:
    """One game of a round; seat order is play order."""

    entrants: tuple[EntrantId, ...]


@dataclass(frozen=True)
class Bye:
    """A round without a game for ``entrant``; worth a win in Swiss and knockout."""

    entrant: EntrantId


@dataclass(frozen=True)
class Result:
    """A finished table: per seat (same order as ``entrants``) its place and score total."""

    entrants: tuple[EntrantId, ...]
    places: tuple[int, ...]
    totals: tuple[int, ...]

    def __post_init__(self) -> None:
        for name in ("entrants", "places", "totals"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if not len(self.entrants) == len(self.places) == len(self.totals):
            raise ValueError("entrants, places and totals must have the same length")
        if len(self.entrants) < 2 or len(set(self.entrants)) != len(self.entrants):
            raise ValueError("a result needs at least two distinct entrants")


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...]


def placement_points(places: Sequence[int]) -> tuple[Fraction, ...]:
    """Points per seat at a table of ``n``: position ``q`` (1-based) earns ``(n - q) / (n - 1)``
    (two seats: win 1, draw 1/2, loss 0); shared places average the positions they cover."""
    n = len(places)
    if n < 2:
        raise ValueError("a table has at least two seats")
    points = [Fraction(0)] * n
    position = 0  # positions already handed out
    ordered = sorted(range(n), key=lambda seat: places[seat])
    for _, group in groupby(ordered, key=lambda seat: places[seat]):
        seats = list(group)
        covered = range(position + 1, position + len(seats) + 1)
        share = Fraction(sum(n - q for q in covered), len(seats) * (n - 1))
        for seat in seats:
            points[seat] = share
        position += len(seats)
    return tuple(points)


def pairwise_score(place: int, other: int) -> Fraction:
    """1 for finishing ahead of ``other``, 1/2 level, 0 behind."""
    if place < other:
        return Fraction(1)
    return Fraction(1, 2) if place == other else Fraction(0)


def _distinct(entrants: Sequence[EntrantId]) -> list[EntrantId]:
    players = list(entrants)
    if len(set(players)) != len(players):
        raise ValueError("entrants must be distinct")
    return players


def round_robin_rounds(entrants: Sequence[EntrantId]) -> list[Round]:
    """Every entrant meets every other once at two-seat tables (circle method), rounds 1..n-1.
    An odd field's phantom opponent gives a bye to each in turn. Seat 0 alternates: nobody plays
    first more than once more than second, never three in a row."""
    slots: list[EntrantId | None] = list(_distinct(entrants))
    if len(slots) < 2:
        return []
    if len(slots) % 2:
        slots.insert(0, None)
    n = len(slots)
    fixed, rest = slots[0], slots[1:]
    rounds = []
    for r in range(n - 1):
        arrangement = [fixed, *rest[r:], *rest[:r]]
        tables: list[Table] = []
        byes: list[Bye] = []
        for i in range(n // 2):
            a, b = arrangement[i], arrangement[n - 1 - i]
            if (r % 2 == 1) if i == 0 else (i % 2 == 1):
                a, b = b, a
            if a is not None and b is not None:
                tables.append(Table((a, b)))
            elif (lone := b if a is None else a) is not None:
                byes.append(Bye(lone))
        rounds.append(Round(r + 1, tuple(tables), tuple(byes)))
    return rounds


def swiss_round(
    entrants: Sequence[EntrantId],
    history: Sequence[Round],
    results: Sequence[Result],
    number: int,
    *,
    table_size: int = 2,
    ratings: Mapping[EntrantId, float] | None = None,
) -> Round:
    """Pair one Swiss round, top board first. Entrants rank by points (``results`` plus 1 per bye
    in ``history``), then rating (missing = lowest), then their order in ``entrants``.

    Two seats: one minimum-cost perfect matching (plus a bye vertex for an odd field) minimises,
    in strict priority: 1. byes already had by the bye's recipient; 2. repeated meetings; 3. the
    bye's recipient's height in the ranking; 4. pairs across score groups; 5. their distance in
    score groups, squared; 6. the Dutch order (the lowest of a group floats to the highest of the
    next; within a group the i-th of the top half meets the i-th of the bottom half).

    Three to six seats: tables filled top-down, each with the highest-ranked unseated entrant and
    the next ones who met no one at it, by a search of at most ``SEARCH_BUDGET`` steps; failing
    that, ``_fewest_repeats``. Seat 0 goes to whoever sat first least often, then by rank.
    """
    if not 2 <= table_size <= 6:
        raise ValueError("table_size must be between 2 and 6")
    players = _distinct(entrants)
    byes = Counter(bye.entrant for past in history for bye in past.byes)
    points = defaultdict(Fraction, {e: Fraction(count) for e, count in byes.items()})
    for result in results:
        for entrant, share in zip(result.entrants, placement_points(result.places), strict=True):
            points[entrant] += share
    index = {e: i for i, e in enumerate(players)}
    rates = ratings or {}

    def rank_key(e: EntrantId) -> tuple[Fraction, float, int]:
        return (-points.get(e, Fraction(0)), -rates.get(e, float("-inf")), index[e])

    order = sorted(players, key=rank_key)
    meetings: Counter[frozenset[EntrantId]] = Counter()
    first_seats: Counter[EntrantId] = Counter()
    for past in history:
        for table in past.tables:
            meetings.update(frozenset(pair) for pair in combinations(table.entrants, 2))
            if table.entrants:
                first_seats[table.entrants[0]] += 1
    if len(order) < 2:
        return Round(number, (), tuple(Bye(e) for e in order))
    if table_size == 2:
        groups, bye = _pair_two(order, points, meetings, byes)
    else:
        groups, bye = _group_tables(order, _table_sizes(len(order), table_size), meetings), None
    rank = {e: i for i, e in enumerate(order)}
    tables = tuple(
        Table(tuple(sorted(group, key=lambda e: (first_seats[e], rank[e])))) for group in groups
    )
    return Round(number, tables, () if bye is None else (Bye(bye),))


def _table_sizes(n: int, table_size: int) -> list[int]:
    count = -(-n // table_size)
    small, extra = divmod(n, count)
    return [small + 1] * extra + [small] * (count - extra)


def _pair_two(
    order: list[EntrantId],
    points: Mapping[EntrantId, Fraction],
    meetings: Counter[frozenset[EntrantId]],
    byes: Counter[EntrantId],
) -> tuple[list[tuple[EntrantId, ...]], EntrantId | None]:
    n = len(order)
    values = sorted({points.get(e, Fraction(0)) for e in order}, reverse=True)
    group = [values.index(points.get(e, Fraction(0))) for e in order]
    sizes = Counter(group)
    position = [group[:i].count(g) for i, g in enumerate(group)]  # rank within its group

    costs: dict[tuple[int, int], tuple[int, ...]] = {}
    for i, j in combinations(range(n), 2):  # i is ranked above j
        gi, gj = group[i], group[j]
        meets = meetings[frozenset((order[i], order[j]))]
        if gi == gj:
            costs[i, j] = (0, meets, 0, 0, 0, abs(position[j] - position[i] - sizes[gi] // 2))
        else:
            fold = sizes[gi] - 1 - position[i] + position[j]
            costs[i, j] = (0, meets, 0, 1, (gj - gi) ** 2, fold)
    if n % 2:  # vertex n is the bye
        for i, e in enumerate(order):
            costs[i, n] = (byes[e], 0, n - 1 - i, 0, 0, 0)

    # Fold the cost vectors into integers that compare the same way over whole matchings.
    tables = (n + 1) // 2
    scale = [1] * 6
    below = 0
    for k in range(5, -1, -1):
        scale[k] = below + 1
        below += scale[k] * tables * max(cost[k] for cost in costs.values())
    cost_of = {
        edge: sum(s * c for s, c in zip(scale, cost, strict=True)) for edge, cost in costs.items()
    }
    top = max(cost_of.values()) + 1
    mate = max_weight_matching(n + n % 2, [(i, j, top - c) for (i, j), c in cost_of.items()])

    bye = next((order[i] for i in range(n) if mate[i] == n), None)
    pairs: list[tuple[EntrantId, ...]] = [
        (order[i], order[j]) for i, j in enumerate(mate[:n]) if i < j < n
    ]
    return pairs, bye


def max_weight_matching(count: int, edges: Sequence[tuple[int, int, int]]) -> list[int]:
    """Each vertex's mate (-1: none) in a maximum-weight maximum-cardinality matching."""
    # Imported here: networkx takes a sixth of a second to load, and only Swiss rounds need it.
    from networkx import Graph
    from networkx.algorithms.matching import max_weight_matching as blossom

    graph: Graph[int] = Graph()
    graph.add_nodes_from(range(count))
    graph.add_weighted_edges_from(edges)
    mate = [-1] * count
    for i, j in blossom(graph, maxcardinality=True):
        mate[i], mate[j] = j, i
    return mate


class _OutOfBudget(Exception):
    pass


def _group_tables(
    order: list[EntrantId], sizes: list[int], meetings: Counter[frozenset[EntrantId]]
) -> list[tuple[EntrantId, ...]]:
    budget = [SEARCH_BUDGET]

    def extend(
        group: list[EntrantId], pool: list[EntrantId], size: int
    ) -> Iterator[list[EntrantId]]:
        if len(group) == size:
            yield group
            return
        for i, e in enumerate(pool):
            budget[0] -= 1
            if budget[0] < 0:
                raise _OutOfBudget
            if len(pool) - i < size - len(group):
                return
            if all(meetings[frozenset((e, g))] == 0 for g in group):
                yield from extend([*group, e], pool[i + 1 :], size)

    def search(unseated: list[EntrantId], left: Counter[int]) -> list[list[EntrantId]] | None:
        if not unseated:
            return []
        for size in sorted((s for s in left if left[s]), reverse=True):
            left[size] -= 1
            for group in extend(unseated[:1], unseated[1:], size):
                plan = search([e for e in unseated if e not in group], left)
                if plan is not None:
                    left[size] += 1
                    return [group, *plan]
            left[size] += 1
        return None

    try:
        plan = search(order, Counter(sizes))
    except _OutOfBudget:
        plan = None
    if plan is None:
        rank = {e: i for i, e in enumerate(order)}
        plan = sorted(
            _fewest_repeats(order, sizes, meetings), key=lambda g: min(rank[e] for e in g)
        )
    return [tuple(group) for group in plan]


def _fewest_repeats(
    order: list[EntrantId], sizes: list[int], meetings: Counter[frozenset[EntrantId]]
) -> list[list[EntrantId]]:
    """Tables with few repeated meetings, then close standings: greedy top-down, then swaps
    between two tables while a swap improves (repeats first, then the squared rank gaps)."""
    rank = {e: i for i, e in enumerate(order)}
    repeat = 4 * max(sizes) * len(order) ** 2 + 1  # outweighs what a swap does to rank gaps

    def cost(e: EntrantId, group: Sequence[EntrantId]) -> int:
        return sum(
            repeat * meetings[frozenset((e, g))] + (rank[e] - rank[g]) ** 2 for g in group if g != e
        )

    unseated = list(order)
    plan: list[list[EntrantId]] = []
    for size in sizes:
        group = [unseated.pop(0)]
        while len(group) < size:
            best = min(unseated, key=lambda e: (cost(e, group), rank[e]))
            unseated.remove(best)
            group.append(best)
        plan.append(group)

    def improving_swap(one: list[EntrantId], two: list[EntrantId]) -> bool:
        for a in one:
            for b in two:
                rest_one = [e for e in one if e != a]
                rest_two = [e for e in two if e != b]
                before = cost(a, rest_one) + cost(b, rest_two)
                if cost(b, rest_one) + cost(a, rest_two) < before:
                    one[:] = sorted([*rest_one, b], key=rank.__getitem__)
                    two[:] = sorted([*rest_two, a], key=rank.__getitem__)
                    return True
        return False

    improved = True
    while improved:
        improved = False
        for one, two in combinations(plan, 2):
            while improving_swap(one, two):
                improved = True
    return plan


def bracket_order(size: int) -> list[int]:
    """Seeds 1..size (a power of two) in bracket order: 1, 16, 8, 9, 4, 13, ... for 16."""
    if size < 2 or size & (size - 1):
        raise ValueError("a bracket size is a power of two, at least 2")
    order = [1, 2]
    while len(order) < size:
        order = [seed for s in order for seed in (s, 2 * len(order) + 1 - s)]
    return order


def _bracket_size(n: int) -> int:
    """The smallest power of two, at least 2, that holds ``n`` entrants."""
    return 1 << max(1, (n - 1).bit_length())


def knockout_bracket(entrants: Sequence[EntrantId], ratings: Mapping[EntrantId, float]) -> Round:
    """Round 1 of a seeded knockout (seed 1 = best rating, missing = lowest, ties by order):
    matches in bracket order, the better seed in seat 0; the top seeds get byes up to a power of
    two. The byes are in seed order: keep it when storing the round, ``bracket_slots`` reads it."""
    players = _distinct(entrants)
    if len(players) < 2:
        raise ValueError("a knockout needs at least two entrants")
    index = {e: i for i, e in enumerate(players)}
    seeded = sorted(players, key=lambda e: (-ratings.get(e, float("-inf")), index[e]))
    order = bracket_order(_bracket_size(len(seeded)))
    tables = [
        Table((seeded[high - 1], seeded[low - 1]))
        for high, low in zip(order[::2], order[1::2], strict=True)
        if low <= len(seeded)
    ]
    byes = [Bye(e) for e in seeded[: len(order) - len(seeded)]]
    return Round(1, tuple(tables), tuple(byes))


def bracket_slots(round_: Round) -> list[Table | Bye]:
    """A knockout round's matches in bracket order, round 1's byes (in seed order, as
    ``knockout_bracket`` lists them) in their places."""
    if any(len(table.entrants) != 2 for table in round_.tables):
        raise ValueError("knockout tables have two seats")
    if not round_.byes:
        return list(round_.tables)
    field = 2 * len(round_.tables) + len(round_.byes)
    size = _bracket_size(field)
    if size - field != len(round_.byes):
        raise ValueError("not a first knockout round: byes do not fill the bracket")
    tables = iter(round_.tables)
    return [
        round_.byes[high - 1] if high <= len(round_.byes) else next(tables)
        for high in bracket_order(size)[::2]
    ]


#: A knockout table tied this many times after its first game is not replayed again: the better
#: seed advances (``decided_by_seed``), so a table of equals cannot hold a tournament forever.
MAX_KNOCKOUT_REPLAYS = 2


def decided_by_seed(result: Result, seed_order: Mapping[EntrantId, int]) -> Result:
    """``result`` with a shared best place given to the best seed alone (``seed_order``: 0 is
    the best seed); the others that shared it come next."""
    best, tied = min(result.places), _leaders(result)
    if len(tied) < 2:
        return result
    winner = min(tied, key=lambda entrant: seed_order[entrant])
    places = tuple(
        place + 1 if place == best and entrant != winner else place
        for entrant, place in zip(result.entrants, result.places, strict=True)
    )
    return Result(result.entrants, places, result.totals)


def _leaders(result: Result) -> list[EntrantId]:
    best = min(result.places)
    return [e for e, place in zip(result.entrants, result.places, strict=True) if place == best]


def knockout_winner(result: Result) -> EntrantId | None:
    """The entrant alone in the best place, or None when it is shared (the game is replayed)."""
    winners = _leaders(result)
    return winners[0] if len(winners) == 1 else None


def _table_winner(table: Table, results: Sequence[Result]) -> EntrantId:
    seats = set(table.entrants)
    winners = {
        winner
        for result in results
        if set(result.entrants) == seats and (winner := knockout_winner(result)) is not None
    }
    if not winners:
        raise ValueError(f"table {table.entrants} has no winner yet: replay it")
    if len(winners) > 1:
        raise ValueError(f"table {table.entrants} has conflicting results")
    return winners.pop()


def knockout_next_round(previous: Round, results: Sequence[Result], number: int) -> Round | None:
    """The next knockout round (winners meet in bracket order), None once the final is decided.
    ``results`` may hold the whole tournament's: tied (replayed) games are ignored; a table with
    no decisive result yet raises ValueError."""
    advancing = [
        slot.entrant if isinstance(slot, Bye) else _table_winner(slot, results)
        for slot in bracket_slots(previous)
    ]
    if len(advancing) <= 1:
        return None
    if len(advancing) % 2:
        raise ValueError("a knockout round needs an even number of matches")
    tables = tuple(Table((a, b)) for a, b in zip(advancing[::2], advancing[1::2], strict=True))
    return Round(number, tables, ())
