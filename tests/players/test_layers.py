"""The seams run one way: players (the accounts) imports nothing of games; the game core imports
nothing of games.accounts, which stands above both (the core tells it a game finished through
games.signals). Read from the source, so a lazy import inside a function counts too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def sources(folder: str) -> Iterator[Path]:
    for path in sorted((ROOT / folder).rglob("*.py")):
        if "migrations" not in path.parts:
            yield path


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_players_imports_nothing_of_games() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sources("players")
        for name in imported(path)
        if within(name, "games")
    ]
    assert found == []


def test_the_game_core_imports_nothing_of_games_accounts() -> None:
    accounts = ROOT / "games" / "accounts"
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sources("games")
        if not path.is_relative_to(accounts)
        for name in imported(path)
        if within(name, "games.accounts")
    ]
    assert found == []
    # The scan reads what it should: the package's own modules do import it.
    assert any(
        within(name, "games.accounts")
        for path in sources("games/accounts")
        for name in imported(path)
    )


#: The rooms of games/ above the tournaments: the staff's (moderation, the admin and its
#: dashboard), what reads accounts and games, and the tournaments' sibling app, matchmaking (a
#: rematch of a table's game is refused).
ABOVE_TOURNAMENTS = (
    "tournaments",
    "moderation",
    "accounts",
    "matchmaking",
    "admin.py",
    "dashboard.py",
)


def test_the_game_core_imports_nothing_of_the_tournaments() -> None:
    """A finished table reaches its tournament through a named task (games.followups.jobs)."""
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sources("games")
        if path.relative_to(ROOT / "games").parts[0] not in ABOVE_TOURNAMENTS
        for name in imported(path)
        if within(name, "games.tournaments")
    ]
    assert found == []
    assert any(
        within(name, "games.tournaments")
        for path in sources("games/moderation")
        for name in imported(path)
    )
