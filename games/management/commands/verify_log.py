"""``manage.py verify_log [--game ID]``: every game's log against its row (games.log.check), for
an admin to run nightly (cron, a scheduler's job). Prints each game at fault and exits 1 if any
is; 0 and one summary line otherwise. Reads only: safe on a live server (each game read on its
own, no lock)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from games.log.check import log_problems
from games.models import Game


class Command(BaseCommand):
    help = (
        "Check that each game's events run 1, 2, 3... with no gap and replay to its stored "
        "snapshot; exit 1 if any does not."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", action="append", default=[], help="a game's id (repeatable)")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("created_at", "id")
        if options["game"]:
            try:
                games = games.filter(pk__in=options["game"])
                found = games.count()
            except ValidationError:
                raise CommandError("--game: not a game id") from None
            if found != len(set(options["game"])):
                raise CommandError("--game: no such game")
        checked = bad = 0
        for game in games.iterator(chunk_size=200):
            checked += 1
            problems = list(log_problems(game))
            if problems:
                bad += 1
                for problem in problems:
                    self.stderr.write(f"game {game.pk}: {problem}")
        if bad:
            raise CommandError(f"{bad} of {checked} games failed the check")
        self.stdout.write(f"{checked} games checked: every log replays to its snapshot")
