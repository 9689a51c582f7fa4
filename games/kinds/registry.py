"""The kinds this server plays, by code: the one place that names them. ``REGISTERED`` names the
modules that build each ``Kind``, in the order offered. A test may serve a kind of its own for a
while (``registered``): every lookup, the ``kind`` columns' choices too, goes through ``KINDS``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib import import_module
from types import MappingProxyType

from django.utils.functional import Promise

from games.kinds.base import Kind

#: The modules that build the product's kinds (each has ``KIND``), in the order offered.
REGISTERED = ("games.kinds.yatzy", "games.kinds.ten_thousand")

_BY_CODE: dict[str, Kind] = {
    kind.code: kind for kind in (import_module(module).KIND for module in REGISTERED)
}

#: Every kind by its code, in the order clients are offered them (a live view: a kind a test
#: registers appears in it).
KINDS: Mapping[str, Kind] = MappingProxyType(_BY_CODE)


def kind_for(code: str) -> Kind:
    """The kind a game's ``kind`` names (``KeyError`` for none: callers hold validated codes)."""
    return _BY_CODE[code]


def kind_label(code: str) -> str:
    """A kind's name in the active language; its code for a kind no longer served."""
    kind = _BY_CODE.get(code)
    return str(kind.label) if kind is not None else code


def level_label(name: str) -> str | Promise:
    """A level's label by its name, whatever the kind (a name means one level wherever it is
    offered); the name itself for a level no kind offers any more."""
    for kind in _BY_CODE.values():
        if name in kind.levels:
            return kind.levels[name].label
    return name


@contextmanager
def registered(kind: Kind) -> Iterator[Kind]:
    """Serve ``kind`` too while the block runs (tests: a kind outside the product)."""
    if kind.code in _BY_CODE:
        raise ValueError(f"a kind {kind.code!r} is registered already")
    _BY_CODE[kind.code] = kind
    try:
        yield kind
    finally:
        del _BY_CODE[kind.code]


def kind_choices() -> list[tuple[str, str | Promise]]:
    """The ``kind`` columns' choices (``Field.choices`` takes the function, read afresh at every
    use, so that a new kind needs no migration) and the schema's ``GameKindEnum``."""
    return [(kind.code, kind.label) for kind in _BY_CODE.values()]
