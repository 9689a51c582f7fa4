"""``manage.py verify_dice <game>``: recompute every roll of a game from its log (docs/api.md,
"Fair dice"), by the formula of its version, and say which, if any, differ. Exit status 0 when
all match, 1 otherwise."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.fairness.seeds import verify_game
from games.models import Game


class Command(BaseCommand):
    help = "Recompute every roll of a game from its seeds and its log; list any that differ."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help="the game's id")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            game = Game.objects.get(pk=options["game"])
        except (Game.DoesNotExist, ValidationError, ValueError):
            raise CommandError(f"no game {options['game']}") from None
        check = verify_game(game)
        if not check.verifiable:
            self.stdout.write(f"{game.pk}: unverifiable (started before fair dice)")
            raise SystemExit(1)
        source = "revealed" if check.revealed else "not yet revealed: read from the game row"
        self.stdout.write(
            f"{game.pk}: fair dice version {check.version}, {check.rolls} rolls; "
            f"server seed {source}"
        )
        for seat, client_seed in check.seat_seeds:
            self.stdout.write(f"seat {seat} rolls by the client seed {client_seed!r}")
        if not check.commitment_holds:
            self.stdout.write("the server seed's SHA-256 is not the hash published at the start")
        for seq, wrong in check.mismatches:
            where = f"roll {wrong.roll} (event {seq})"
            if wrong.seat is not None:
                where += f", seat {wrong.seat}'s roll {wrong.nonce}"
            if wrong.unseeded:
                self.stdout.write(f"{where}: the seat's first roll names no client seed")
                continue
            self.stdout.write(
                f"{where}: rolled {list(wrong.actual)}, the seeds give {list(wrong.expected)}"
            )
        if not check.ok:
            raise SystemExit(1)
        self.stdout.write("every roll matches the seeds")
