"""Schema-only serializers: the OpenAPI description of what the presenters and the rules read and
write as plain dicts. Never run; ``tests/api/test_schema_types.py`` validates real answers of
every kind and status against the schema built from them, so they cannot drift unnoticed.

- ``GAME``: a game, a ``oneOf`` discriminated on ``kind``, each with its state typed
  (``YatzyState``, ``TenThousandState``);
- ``MOVE``: a move, a ``oneOf`` discriminated on ``type`` (``roll``, ``select``, ``score``,
  ``bank``), each with its fields.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.api import serializers as s
from games.api.event_types import TypedEventSerializer
from games.rules import ten_thousand, yatzy
from games.rules.yatzy import BOXES

Rendered = serializers.Serializer[dict[str, Any]]


def _ints(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), **kwargs)


class ResultSerializer(Rendered):
    places = _ints(help_text="Each seat's place, 1 first (ties share it)")
    totals = _ints(help_text="Each seat's final total")
    winners = _ints(help_text="The seats placed first")
    draw = serializers.BooleanField()


class MoveChoiceSerializer(Rendered):
    type = serializers.CharField(help_text="A move type the seat to play may send now")
    label = serializers.CharField(  # type: ignore[assignment]  # DRF's stubs: Field.label
        help_text="Its button's words, in the request's language"
    )


class YatzyBoxSerializer(Rendered):
    box = serializers.ChoiceField(choices=BOXES)
    label = serializers.CharField()  # type: ignore[assignment]  # DRF's stubs: Field.label
    description = serializers.CharField()
    points = serializers.IntegerField(
        allow_null=True, help_text="In a sheet: the box's points, null while empty; in "
        "legal_boxes: what scoring it now adds"
    )  # fmt: skip


class YatzySheetSerializer(Rendered):
    seat = serializers.IntegerField()
    boxes = YatzyBoxSerializer(many=True)
    upper_sum = serializers.IntegerField()
    upper_bonus = serializers.IntegerField()
    lower_sum = serializers.IntegerField()
    yatzy_bonus = serializers.IntegerField()
    total = serializers.IntegerField()


class EndingSerializer(Rendered):
    """What every kind's state says of a game ended early (games.rules.ending)."""

    out = _ints(help_text="The seats that left the game, in order")
    timeouts = _ints(help_text="Each seat's timed-out turns in a row")
    aborted = serializers.BooleanField(help_text="Called off: no result")
    adjudicated = serializers.BooleanField(help_text="The staff decided the result")
    limit_reached = serializers.BooleanField(
        help_text="The game ended at a limit of its length: the highest total won"
    )


class YatzyStateSerializer(EndingSerializer):
    round = serializers.IntegerField()
    rounds = serializers.IntegerField()
    turn_seat = serializers.IntegerField(allow_null=True, help_text="null once finished")
    dice = _ints(help_text="The five dice, 1 to 6 (empty before the turn's first roll)")
    held = _ints(help_text="Positions kept from the previous roll")
    selected = serializers.ChoiceField(choices=BOXES, allow_null=True, help_text="Marked box")
    rolls_used = serializers.IntegerField()
    rolls_left = serializers.IntegerField()
    can_roll = serializers.BooleanField()
    can_score = serializers.BooleanField()
    legal_boxes = YatzyBoxSerializer(many=True, help_text="The boxes you may fill now, with points")
    moves = MoveChoiceSerializer(many=True)
    yatzy_bonus = serializers.IntegerField(help_text="100 if scoring now earns a Yatzy bonus")
    must_sacrifice = serializers.BooleanField(help_text="Every legal box scores 0")
    message = s.MessageSerializer(allow_null=True)
    auto_confirm_seconds = serializers.FloatField(help_text="0: off")
    selects_left = serializers.IntegerField(help_text="Marks this turn may still make")
    sheets = YatzySheetSerializer(many=True)
    result = ResultSerializer(allow_null=True)


class KeptSerializer(Rendered):
    dice = _ints()
    points = serializers.IntegerField()


class TenThousandStateSerializer(EndingSerializer):
    target = serializers.IntegerField()
    round = serializers.IntegerField(
        allow_null=True,
        help_text="The round being played (every seat plays one turn a round); null in a game "
        "begun before the limit of rounds",
    )
    max_rounds = serializers.IntegerField(
        allow_null=True, help_text="The game ends at the end of this round, the highest total first"
    )
    turn_seat = serializers.IntegerField(allow_null=True, help_text="null once finished")
    totals = _ints(help_text="Each seat's banked total")
    roll = _ints(help_text="The current roll; empty when none is pending")
    scoring_indices = _ints(help_text="Positions of the roll's dice that score")
    best_keep_points = serializers.IntegerField()
    kept = KeptSerializer(many=True, help_text="Dice set aside this turn, group by group")
    turn_points = serializers.IntegerField()
    dice_in_play = serializers.IntegerField()
    must_set_aside = serializers.BooleanField()
    can_roll = serializers.BooleanField()
    can_bank = serializers.BooleanField()
    farkle_risk = serializers.FloatField(allow_null=True, help_text="The next throw's, if known")
    farkle_risk_by_dice = serializers.DictField(
        child=serializers.FloatField(), help_text="The risk of a throw of 1 to 6 dice, by count"
    )
    hot_dice = serializers.BooleanField()
    last_round = serializers.BooleanField()
    last_round_trigger = serializers.IntegerField(allow_null=True)
    messages = s.MessageSerializer(many=True)
    moves = MoveChoiceSerializer(many=True)
    result = ResultSerializer(allow_null=True)


class YatzyGameSerializer(s.GameSerializer):
    kind = serializers.ChoiceField(choices=["yatzy"])
    state = YatzyStateSerializer(  # type: ignore[assignment]  # the method field, typed
        allow_null=True, help_text="null until the game starts"
    )


class TenThousandGameSerializer(s.GameSerializer):
    kind = serializers.ChoiceField(choices=["ten_thousand"])
    state = TenThousandStateSerializer(  # type: ignore[assignment]  # the method field, typed
        allow_null=True, help_text="null until the game starts"
    )


GAME = PolymorphicProxySerializer(
    component_name="Game",
    serializers={"yatzy": YatzyGameSerializer, "ten_thousand": TenThousandGameSerializer},
    resource_type_field_name="kind",
    many=False,
)


class _MoveBase(Rendered):
    seat = serializers.IntegerField(
        required=False, help_text="The seat you mean to move for (hot seats)"
    )
    expected_version = serializers.IntegerField(
        required=False, min_value=0, help_text="409 stale_version unless the game is at it"
    )
    client_seed = serializers.CharField(
        required=False,
        help_text="Your seat's client seed for the fair dice, until its first roll (README, "
        "Fair dice); 409 client_seed_fixed after it, unless the same",
    )  # fmt: skip


class RollMoveSerializer(_MoveBase):
    type = serializers.ChoiceField(choices=["roll"])
    hold = _ints(
        required=False,
        max_length=yatzy.DICE,
        help_text="yatzy: positions of the dice to keep (none at first)",
    )
    keep = _ints(
        required=False,
        max_length=ten_thousand.DICE,
        help_text="Dés 10 000: positions of the roll to set aside first",
    )


class SelectMoveSerializer(_MoveBase):
    type = serializers.ChoiceField(choices=["select"])
    box = serializers.ChoiceField(
        choices=BOXES,
        allow_null=True,
        help_text="yatzy: mark it (null: unmark); auto-confirm scores",
    )


class ScoreMoveSerializer(_MoveBase):
    type = serializers.ChoiceField(choices=["score"])
    box = serializers.ChoiceField(choices=BOXES, help_text="yatzy: the box to fill")


class BankMoveSerializer(_MoveBase):
    type = serializers.ChoiceField(choices=["bank"])
    keep = _ints(
        max_length=ten_thousand.DICE,
        help_text="Dés 10 000: positions of the roll to set aside, then bank",
    )


MOVE = PolymorphicProxySerializer(
    component_name="Move",
    serializers={
        "roll": RollMoveSerializer,
        "select": SelectMoveSerializer,
        "score": ScoreMoveSerializer,
        "bank": BankMoveSerializer,
    },
    resource_type_field_name="type",
    many=False,
)


class MoveResultSerializer(Rendered):
    events = TypedEventSerializer(many=True)
    game = GAME


class HintSerializer(s.HintSerializer):
    move = MOVE  # type: ignore[assignment]  # the dict field, typed


class ReplaySerializer(s.ReplaySerializer):
    state = PolymorphicProxySerializer(  # type: ignore[assignment]
        component_name="GameState",
        serializers=[YatzyStateSerializer, TenThousandStateSerializer],
        resource_type_field_name=None,
        many=False,
        allow_null=True,
    )


class EventPageSerializer(s.EventPageSerializer):
    events = TypedEventSerializer(many=True)
