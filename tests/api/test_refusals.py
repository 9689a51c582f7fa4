"""The one error vocabulary (config.vocabulary.refusals): every code raised anywhere has its entry,
every layer raises through it, and an unknown code is a programming error found here, not a default
message.

Words in every language: tests/i18n/test_refusal_words.py.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from django.utils import translation
from rest_framework import exceptions

from config.vocabulary.errors import ApiError, Conflict, Forbidden, InvalidInput, error_body
from config.vocabulary.refusals import Refusal, refused_by_rules
from games.rules import RuleError

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = [ROOT / name for name in ("config", "games", "players", "ai")]
RULES_DIR = ROOT / "games" / "rules"
# Where refusals are made rather than raised: the vocabulary itself.
VOCABULARY = {
    ROOT / "config" / "vocabulary" / "errors.py",
    ROOT / "config" / "vocabulary" / "refusals.py",
}
API_ERRORS = {"ApiError", "InvalidInput", "Forbidden", "Conflict"}
DRF_REFUSALS = {
    cls.__name__
    for cls in vars(exceptions).values()
    if isinstance(cls, type) and issubclass(cls, exceptions.APIException)
} - {"ValidationError"}  # serializers' field errors, which the handler renders as invalid_input


def python_files(directories: Iterable[Path]) -> list[Path]:
    return sorted(
        path
        for directory in directories
        for path in directory.rglob("*.py")
        if "migrations" not in path.parts
    )


def calls_named(tree: ast.AST, names: set[str]) -> list[ast.Call]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in names:
                found.append(node)
    return found


def rule_codes(directories: Iterable[Path], root: Path = ROOT) -> tuple[dict[str, str], list[str]]:
    """Every ``RuleError("code", ...)`` in the source: {code: where}, and the calls whose code is
    not a literal (which would hide a code from this scan)."""
    codes: dict[str, str] = {}
    hidden: list[str] = []
    for path in python_files(directories):
        for call in calls_named(ast.parse(path.read_text(), str(path)), {"RuleError"}):
            where = f"{path.relative_to(root)}:{call.lineno}"
            first = call.args[0] if call.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                codes.setdefault(first.value, where)
            else:
                hidden.append(where)
    return codes, hidden


def without_entry(codes: dict[str, str]) -> list[str]:
    missing = []
    for code, where in codes.items():
        try:
            Refusal.of_code(code)
        except KeyError:
            missing.append(f"{where}: {code!r}")
    return missing


def test_the_scan_finds_the_rules_codes() -> None:
    """A scan that finds nothing passes anything: it finds codes of both engines and the base."""
    codes, _hidden = rule_codes([RULES_DIR])
    assert {"box_used", "nothing_to_bank", "invalid_option", "invalid_dice_indices"} <= set(codes)
    assert len(codes) >= 15


def test_every_code_the_rules_raise_has_exactly_one_entry() -> None:
    codes, hidden = rule_codes(SOURCE_DIRS)
    assert not hidden, f"RuleError with a code that is not a literal: {hidden}"
    assert not without_entry(codes), "add them to config.vocabulary.refusals: " + ", ".join(
        without_entry(codes)
    )


def test_a_new_rules_code_without_an_entry_fails_the_scan(tmp_path: Path) -> None:
    module = tmp_path / "games" / "rules" / "dominoes.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        "from games.rules.base import RuleError\n\n\n"
        "def decide(state, command):\n"
        '    raise RuleError("double_six_first", field="tile")\n\n\n'
        "def check(code):\n"
        "    raise RuleError(code)\n"
    )
    codes, hidden = rule_codes([tmp_path], root=tmp_path)
    assert without_entry(codes) == ["games/rules/dominoes.py:5: 'double_six_first'"]
    assert hidden == ["games/rules/dominoes.py:9"]


def test_an_unknown_code_is_a_programming_error_not_a_default_message() -> None:
    with pytest.raises(KeyError):
        refused_by_rules(RuleError("no_such_code", field="box"))
    with pytest.raises(KeyError):  # two entries share it: which words would be a guess
        Refusal.of_code("not_found")
    error = refused_by_rules(RuleError("box_used", field="box", box="fours"))
    assert error.entry is Refusal.BOX_USED.value


def test_every_entry_the_code_names_exists() -> None:
    named = {
        (path.relative_to(ROOT), name)
        for path in python_files(SOURCE_DIRS)
        for name in re.findall(r"\bRefusal\.([A-Z][A-Z0-9_]*)\b", path.read_text())
    }
    assert len(named) > 40
    unknown = [f"{path}: Refusal.{name}" for path, name in named if name not in Refusal.__members__]
    assert not unknown, unknown


def test_every_layer_raises_through_the_vocabulary() -> None:
    """No refusal is made from a code and words of its own, nor from DRF's classes directly."""
    made_elsewhere = []
    for path in python_files(SOURCE_DIRS):
        if path in VOCABULARY:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for call in calls_named(tree, API_ERRORS | DRF_REFUSALS):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr in API_ERRORS:
                continue  # a method of that name (none today), not our class
            made_elsewhere.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    assert not made_elsewhere, made_elsewhere


def test_django_rest_frameworks_own_refusals_have_their_entries() -> None:
    """DRF raises them itself: their codes are clients' too, so the table has them."""
    for name in DRF_REFUSALS - {"APIException"}:
        drf_class = getattr(exceptions, name)
        entries = [r for r in Refusal if r.value.drf_class is drf_class and r.value.drf_words]
        assert len(entries) == 1, name
        assert (entries[0].code, entries[0].status) == (
            drf_class.default_code,
            drf_class.status_code,
        )
    for refusal in Refusal:
        if refusal.value.drf_class is not None:
            # DRF's views treat some of their classes apart (a 401's WWW-Authenticate header).
            assert isinstance(refusal.error(), refusal.value.drf_class), refusal


@pytest.mark.parametrize(
    ("refusal", "status", "exception_class"),
    [
        (Refusal.INVALID_QUERY, 400, InvalidInput),
        (Refusal.INVALID_CREDENTIALS, 401, ApiError),
        (Refusal.NOT_CREATOR, 403, Forbidden),
        (Refusal.GAME_NOT_FOUND, 404, ApiError),
        (Refusal.NOT_YOUR_TURN, 409, Conflict),
    ],
)
def test_an_entry_raises_the_class_of_its_status(
    refusal: Refusal, status: int, exception_class: type[ApiError]
) -> None:
    error = refusal.error()
    assert type(error) is exception_class
    assert error.status_code == status
    assert error.get_codes() == refusal.code


def test_the_body_is_the_apis_one_shape() -> None:
    with translation.override("en"):
        body = error_body(Refusal.BOX_USED.error(params={"box": "fours"}))
        assert body == {
            "code": "box_used",
            "detail": "This box is already filled.",
            "field": "box",
            "params": {"box": "fours"},
        }
        # The field of the entry unless the raiser names one, or none.
        assert error_body(Refusal.BOX_USED.error(field=None))["field"] is None
        assert error_body(Refusal.NOT_YOUR_TURN.error(field="seat"))["field"] == "seat"
        assert "params" not in error_body(Refusal.GAME_NOT_FOUND.error())
