"""Build (or check) the computer players' tables, so the first game does not wait for them."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Build the yatzy strategy table if it is missing or invalid, and report it."

    def handle(self, *args: Any, **options: Any) -> None:
        from ai.yatzy import load_table, start_value
        from ai.yatzy.table import table_path

        started = time.perf_counter()
        load_table()
        self.stdout.write(
            f"yatzy table {table_path()} ready in {time.perf_counter() - started:.1f} s; "
            f"expected score under optimal play {start_value():.4f}"
        )
