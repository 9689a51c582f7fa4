"""The rules' generic wire codec (``games.rules.base.WireForm``) on forms of its own."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

import pytest

from games.rules import ten_thousand, yatzy
from games.rules.base import (
    CommandSeat,
    Dice,
    RuleError,
    TaggedUnion,
    Wire,
    WireError,
    WireForm,
    options_from_wire,
    stored_options,
)


def positive(value: int) -> int:
    if value <= 0:
        raise WireError("not positive")
    return value


def refuse_odd(value: object) -> int:
    if not isinstance(value, int) or value % 2:
        raise RuleError("odd", field="even")
    return value


@dataclass(frozen=True)
class Settings(WireForm):
    speed: float = 1.0
    label: str = "plain"


@dataclass(frozen=True)
class Shown(WireForm):
    type: ClassVar[str] = "shown"
    seat: int
    dice: Dice
    groups: tuple[tuple[int, ...], ...]
    settings: Settings = field(default_factory=Settings)
    note: str | None = None
    flag: bool = False
    count: Annotated[int, Wire(check=positive)] = 1
    hex_code: Annotated[int, Wire(encode=hex, decode=lambda text: int(text, 16))] = 0


@dataclass(frozen=True)
class Asked(WireForm):
    type: ClassVar[str] = "asked"
    seat: CommandSeat
    even: Annotated[int, Wire(decode=refuse_odd)] = 0


@dataclass(frozen=True)
class Unsupported(WireForm):
    table: dict[str, int]


SHOWN = Shown(
    seat=2,
    dice=(6, 1),
    groups=((1, 1), ()),
    settings=Settings(2.5, "fast"),
    note="hi",
    flag=True,
    count=3,
    hex_code=255,
)


def test_the_form_is_the_fields_in_order_after_the_type() -> None:
    wire = SHOWN.to_wire()
    assert json.dumps(wire) == json.dumps(
        {
            "type": "shown",
            "seat": 2,
            "dice": [6, 1],
            "groups": [[1, 1], []],
            "settings": {"speed": 2.5, "label": "fast"},
            "note": "hi",
            "flag": True,
            "count": 3,
            "hex_code": "0xff",
        }
    )
    assert Shown.from_wire(json.loads(json.dumps(wire))) == SHOWN


def test_missing_keys_take_the_defaults_and_a_required_one_reads_as_none() -> None:
    shown = Shown.from_wire({"seat": 0, "dice": [], "groups": []})
    assert shown == Shown(seat=0, dice=(), groups=())
    assert shown.settings == Settings()
    with pytest.raises(WireError, match="seat: expected int, got None"):
        Shown.from_wire({"dice": [], "groups": []})


def test_a_float_field_reads_an_int_as_a_float() -> None:
    settings = Settings.from_wire({"speed": 3})
    assert settings.speed == 3.0
    assert type(settings.speed) is float


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seat": True}, "seat: expected int"),
        ({"seat": 1.0}, "seat: expected int"),
        ({"dice": "12"}, "dice: expected a list"),
        ({"dice": [1, 7]}, "not a die face"),
        ({"dice": [1, False]}, "dice: expected int"),
        ({"groups": [[1], 2]}, "groups: expected a list"),
        ({"groups": [["1"]]}, "groups: expected int"),
        ({"settings": [1]}, "settings: expected an object"),
        ({"settings": {"speed": "fast"}}, "speed: expected a number"),
        ({"note": 3}, "note: expected str"),
        ({"flag": 1}, "flag: expected bool"),
        ({"count": 0}, "not positive"),
    ],
)
def test_data_that_does_not_fit_the_types_is_a_wire_error(
    change: dict[str, Any], message: str
) -> None:
    with pytest.raises(WireError, match=message):
        Shown.from_wire(SHOWN.to_wire() | change)


def test_a_field_not_carried_is_not_on_the_wire_and_comes_as_a_keyword() -> None:
    asked = Asked(seat=4, even=2)
    assert asked.to_wire() == {"type": "asked", "even": 2}
    assert Asked.from_wire({"even": 2, "seat": 9}, seat=4) == asked
    with pytest.raises(RuleError) as caught:
        Asked.from_wire({"even": 3}, seat=0)
    assert (caught.value.code, caught.value.field) == ("odd", "even")


def test_a_tagged_union_reads_each_form_by_its_type() -> None:
    union = TaggedUnion[Shown | Asked](
        Shown, Asked, unknown=lambda kind: RuleError("unknown", field=repr(kind))
    )
    assert union.decode(SHOWN.to_wire()) == SHOWN
    assert union.decode({"type": "asked"}, seat=1) == Asked(seat=1)
    for data, kind in [
        ({"type": "other"}, "'other'"),
        ({"type": ["asked"]}, "['asked']"),
        ({}, "None"),
        ("asked", "None"),
        (None, "None"),
    ]:
        with pytest.raises(RuleError) as caught:
            union.decode(data)  # type: ignore[arg-type]
        assert caught.value.field == kind


def test_the_code_is_written_once_and_a_subclass_writes_its_own() -> None:
    SHOWN.to_wire()
    written = vars(Shown)["to_wire"]
    assert written is not vars(WireForm)["to_wire"]
    Shown.from_wire(SHOWN.to_wire())
    assert vars(Shown)["to_wire"] is written

    @dataclass(frozen=True)
    class Louder(Shown):  # after Shown's code is written: Louder must not inherit it
        volume: int = 11

    louder = Louder(seat=1, dice=(2,), groups=(), volume=12)
    assert louder.to_wire()["volume"] == 12
    assert Louder.from_wire(louder.to_wire()) == louder
    assert "volume" not in Shown(seat=1, dice=(2,), groups=()).to_wire()


def test_a_type_without_a_json_form_is_refused_on_first_use() -> None:
    with pytest.raises(TypeError, match="no JSON form"):
        Unsupported({"a": 1}).to_wire()


def test_options_from_a_request_and_from_storage() -> None:
    assert options_from_wire(Settings, None) == Settings()
    assert options_from_wire(Settings, {"speed": 2}) == Settings(2.0)
    for data, at_fault in [([1], "options"), ({"speed": 1, "size": 2}, "options.size")]:
        with pytest.raises(RuleError) as caught:
            options_from_wire(Settings, data)
        assert (caught.value.code, caught.value.field) == ("invalid_option", at_fault)
    read = stored_options(Settings).decode
    assert read is not None
    assert read({"label": "x"}) == Settings(label="x")
    with pytest.raises(WireError, match=r"bad options: options\.size"):
        read({"size": 2})


@pytest.mark.parametrize(
    "command",
    [yatzy.Roll(1), yatzy.Roll(0, (4, 0)), yatzy.Score(2, "chance"), yatzy.Select(0, None)],
)
def test_yatzy_commands_have_the_form_clients_send(command: yatzy.Command) -> None:
    wire = command.to_wire()
    assert "seat" not in wire
    assert yatzy.command_from_wire(json.loads(json.dumps(wire)), command.seat) == command


def test_a_move_whose_type_is_not_a_string_is_an_unknown_move() -> None:
    for engine in (yatzy, ten_thousand):
        with pytest.raises(RuleError) as caught:
            engine.command_from_wire({"type": ["roll"]}, 0)
        assert (caught.value.code, caught.value.field) == ("unknown_move", "type")
