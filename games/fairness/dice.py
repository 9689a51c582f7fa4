"""Where the server's dice come from: ``settings.GAMES_DICE_ROLLER``. In production that is
``games.rules.secure_roller`` (then a game rolls by its seeds: ``seeds.roller_for``). The setting
is not read from the environment: only code (a test's own roller) changes it.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.utils.module_loading import import_string

from games.rules import DiceRoller


@functools.cache
def _imported(path: str) -> DiceRoller:
    roller: DiceRoller = import_string(path)
    return roller


def dice_roller() -> DiceRoller:
    """The roller for the next move: the setting's dotted path, or a roller a test set there."""
    roller = settings.GAMES_DICE_ROLLER
    return _imported(roller) if isinstance(roller, str) else roller
