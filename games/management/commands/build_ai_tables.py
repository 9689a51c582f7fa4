"""Build (or check) the computer players' tables, so the first game does not wait for them."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from games.kinds import KINDS


class Command(BaseCommand):
    help = "Build each kind's computer tables if they are missing or invalid, and report them."

    def handle(self, *args: Any, **options: Any) -> None:
        for kind in KINDS.values():
            if kind.tables is None:
                continue
            started = time.perf_counter()
            held = kind.tables()
            self.stdout.write(
                f"{kind.code}: {held}, ready in {time.perf_counter() - started:.1f} s"
            )
