"""``manage.py verify_log``: a corrupted snapshot, a gap in seq, or a wrong version is reported,
with a non-zero exit; a sound database passes."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Game, GameEvent
from tests.factories import account, move, new_game

pytestmark = pytest.mark.django_db


def games() -> tuple[Game, Game]:
    alice = account("alice")
    first = move(new_game(alice), alice, type="roll")
    second = move(new_game(alice, "ten_thousand", ["me", "hotseat"]), alice, type="roll")
    return first, second


def verify(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("verify_log", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_a_sound_database_passes() -> None:
    games()
    out, err = verify()
    assert "2 games checked" in out
    assert err == ""


def test_a_corrupted_snapshot_is_reported() -> None:
    first, second = games()
    state = dict(first.state or {})
    state["current_seat"] = 7
    Game.objects.filter(pk=first.pk).update(state=state)
    with pytest.raises(CommandError, match="1 of 2 games failed"):
        verify()
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_log", stderr=err)
    assert f"game {first.pk}: replaying the log does not give the stored snapshot" in err.getvalue()
    assert str(second.pk) not in err.getvalue()
    out, _ = verify("--game", str(second.pk))
    assert "1 games checked" in out
    with pytest.raises(CommandError):
        verify("--game", str(first.pk))


def test_a_wrong_version_is_reported() -> None:
    first, _ = games()
    Game.objects.filter(pk=first.pk).update(version=first.version + 1)
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_log", "--game", str(first.pk), stderr=err)
    assert "version" in err.getvalue()


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(CommandError, match="no such game"):
        verify("--game", "00000000-0000-0000-0000-000000000000")
    with pytest.raises(CommandError, match="not a game id"):
        verify("--game", "nope")


def test_the_command_exits_non_zero() -> None:
    """As cron runs it: a process whose exit status says whether the check failed."""
    result = subprocess.run(
        [sys.executable, "manage.py", "verify_log", "--game", "nope"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "not a game id" in result.stderr


def test_a_gap_in_seq_is_reported() -> None:
    first, _ = games()
    data = first.events.order_by("seq").values_list("data", flat=True).last()
    GameEvent.objects.create(game=first, seq=first.version + 2, type="dice_rolled", data=data)
    Game.objects.filter(pk=first.pk).update(version=first.version + 2)
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_log", stderr=err)
    assert f"seq is not gap-free from 1 (missing [{first.version + 1}])" in err.getvalue()
