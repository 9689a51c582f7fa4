"""Where the server's dice come from: ``settings.GAMES_DICE_ROLLER``.

In production that is ``games.rules.secure_roller``: then a game rolls by the seeds it committed to
(``games.fairness.seeds.roller_for``), and a game from before fair dice by the operating system's
cryptographic RNG. The setting is not read from the environment, so only code (a test's own
roller) can change it.
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
