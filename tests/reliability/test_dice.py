"""The server's dice: the operating system's CSPRNG in production, a test's own roller when it
sets one (settings.GAMES_DICE_ROLLER, games.fairness.dice)."""

from __future__ import annotations

import pytest
from django.conf import settings

from games.fairness.dice import dice_roller
from games.models import GameEvent
from games.rules import secure_roller
from players.models import Player
from tests.doubles import ScriptedDice
from tests.factories import move, new_game

pytestmark = pytest.mark.django_db


def test_the_server_rolls_the_cryptographic_dice_unless_a_test_sets_its_own() -> None:
    assert settings.GAMES_DICE_ROLLER == "games.rules.secure_roller"
    assert dice_roller() is secure_roller


def test_a_move_rolls_the_dice_the_setting_names(ann: Player, dice: ScriptedDice) -> None:
    dice.push((6, 5, 4, 3, 2))
    game = move(new_game(ann), ann, type="roll")
    rolled = GameEvent.objects.get(game=game, type="dice_rolled")
    assert rolled.data["dice"] == [6, 5, 4, 3, 2]
    assert dice_roller() is dice
