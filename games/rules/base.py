"""Shared vocabulary of the rules engines: dice sources, errors, places, replay, and the wire
codec of their events, states, options and commands. Pure Python."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import MISSING, Field, dataclass, fields
from types import UnionType
from typing import (
    Annotated,
    Any,
    ClassVar,
    Generic,
    Self,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

S = TypeVar("S")
E = TypeVar("E")

#: Produces ``n`` dice faces (1-6). The server passes a CSPRNG-backed roller; tests pass fixed dice.
DiceRoller = Callable[[int], tuple[int, ...]]


def secure_roller(n: int) -> tuple[int, ...]:
    """Roll ``n`` six-sided dice from the operating system's cryptographic RNG."""
    return tuple(secrets.randbelow(6) + 1 for _ in range(n))


def fixed_roller(*rolls: Iterable[int]) -> DiceRoller:
    """A roller that returns the given rolls in order (for tests and replays of known games)."""
    queue = [tuple(r) for r in rolls]

    def roll(n: int) -> tuple[int, ...]:
        if not queue:
            raise AssertionError("fixed_roller ran out of rolls")
        dice = queue.pop(0)
        if len(dice) != n:
            raise AssertionError(f"fixed_roller: asked for {n} dice, next roll has {len(dice)}")
        return dice

    return roll


class RuleError(Exception):
    """An illegal command: a stable, machine-readable ``code`` and the ``params`` of its message,
    which the server translates (this library stays free of Django and of any language)."""

    def __init__(self, code: str, field: str | None = None, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.field = field
        self.params = params

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, field={self.field!r}, **{self.params!r})"


def require_dice(dice: Iterable[int], count: int | None = None) -> tuple[int, ...]:
    """Check a sequence of die faces; ``ValueError`` is a programming error, not a rule error."""
    faces = tuple(dice)
    if count is not None and len(faces) != count:
        raise ValueError(f"expected {count} dice, got {len(faces)}")
    for face in faces:
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
            raise ValueError(f"not a die face: {face!r}")
    return faces


def faces_to_indices(roll: Sequence[int], faces: Sequence[int]) -> tuple[int, ...]:
    """Positions in ``roll`` of the dice ``faces`` (first matching positions, ascending): players
    choose faces, engines take positions. ``ValueError`` if ``faces`` is not part of ``roll``."""
    free = list(enumerate(roll))
    taken: list[int] = []
    for face in faces:
        for slot, (index, die) in enumerate(free):
            if die == face:
                taken.append(index)
                del free[slot]
                break
        else:
            raise ValueError(f"{tuple(faces)!r} is not part of the roll {tuple(roll)!r}")
    return tuple(sorted(taken))


def places_for(totals: Sequence[int]) -> tuple[int, ...]:
    """1 + the number of strictly higher totals: equal totals share a place (1, 1, 3 ...)."""
    return tuple(1 + sum(other > total for other in totals) for total in totals)


def replay(apply: Callable[[S | None, E], S], events: Iterable[E]) -> S:
    """Fold ``events`` into ``apply`` from nothing: the state of a game is exactly this."""
    state: S | None = None
    for event in events:
        state = apply(state, event)
    if state is None:
        raise ValueError("replay needs at least one event")
    return state


class WireError(ValueError):
    """Stored data (an event, a state snapshot) that this engine did not write."""


@dataclass(frozen=True)
class Wire:
    """How a field crosses the wire where its type alone does not say: ``Annotated[T, Wire(...)]``.

    ``decode`` replaces the type's reader (a command's field raises its ``RuleError``), ``check``
    runs on the reader's result, ``encode`` replaces the writer. ``carried=False``: not on the wire,
    ``from_wire`` takes it as a keyword. ``omitted_if_none``: a ``None`` is not written (it reads
    back as the default), so a field added later leaves older forms byte for byte as they were.
    """

    decode: Callable[[Any], Any] | None = None
    check: Callable[[Any], Any] | None = None
    encode: Callable[[Any], Any] | None = None
    carried: bool = True
    omitted_if_none: bool = False


@dataclass(frozen=True)
class Doc:
    """What the API's schema says of a field beyond its type: ``Annotated[T, Doc(...)]``.
    ``max_items``: the longest list the rules read; ``minimum``, ``maximum``, ``values``: what an
    option's reader admits (``GET kinds/``); ``format``: OpenAPI's (``date-time``); ``ref``: the
    schema's component (``Move``). None of them checks anything: the readers do."""

    text: str = ""
    max_items: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    values: tuple[Any, ...] = ()
    format: str = ""
    ref: str = ""


@dataclass(frozen=True)
class Choices:
    """The strings a field may be: one set, the schema's enum ``name``, wherever it is used;
    ``labels``: what each means, for its description."""

    name: str
    values: tuple[str, ...]
    labels: tuple[Any, ...] = ()


def one_of(values: tuple[str, ...], what: str) -> Wire:
    """A string field that is one of ``values`` (else ``WireError``: "not a <what>")."""

    def check(value: str) -> str:
        if value not in values:
            raise WireError(f"not a {what}: {value!r}")
        return value

    return Wire(check=check)


def _faces_on_wire(faces: tuple[int, ...]) -> tuple[int, ...]:
    try:
        return require_dice(faces)
    except ValueError as error:
        raise WireError(str(error)) from None


#: Die faces, 1 to 6.
Dice = Annotated[tuple[int, ...], Wire(check=_faces_on_wire)]
#: A command's seat: who sends the command decides it, never its JSON.
CommandSeat = Annotated[int, Wire(carried=False)]
#: A field written only when it is not ``None`` (its default must be ``None``).
OMITTED_IF_NONE = Wire(omitted_if_none=True)


class WireForm:
    """The base of frozen dataclasses with a JSON form: events, states, options, commands.

    The form is the fields in order (tuples as lists, nested forms as objects), after ``"type"``
    for a class that has one. ``to_wire`` and ``from_wire`` are written per class from its fields'
    types on first use and replace these two: the move path, which decodes a snapshot and encodes
    events and a state on every move, pays what hand-written code would. ``from_wire`` raises
    ``WireError`` for data that does not fit (or a ``Wire``'s own error); a missing key takes the
    field's default, else ``None``.
    """

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # set by @dataclass on each form

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A subclass has fields of its own: it writes its own code even if its parent has. Putting
        # a method back on a class is what mypy refuses as method-assign; it is the point here.
        cls.to_wire = WireForm.to_wire  # type: ignore[method-assign]
        cls.from_wire = WireForm.__dict__["from_wire"]  # type: ignore[method-assign]

    def to_wire(self) -> dict[str, Any]:
        # The compiled function is written at run time (exec), so mypy knows only Any of it.
        return _compiled(type(self)).to_wire(self)  # type: ignore[no-any-return]

    @classmethod
    def from_wire(cls, data: Mapping[str, Any], **not_carried: Any) -> Self:
        return cast(Self, _compiled(cls).from_wire(data, **not_carried))


F = TypeVar("F", bound=WireForm)


class TaggedUnion(Generic[F]):
    """Decodes the JSON of one of ``forms``, chosen by its ``"type"``; ``unknown(type)`` is the
    error for any other ``"type"``, or for data that is not an object."""

    def __init__(self, *forms: type[F], unknown: Callable[[object], Exception]) -> None:
        self._forms: dict[str, type[F]] = {cast(Any, form).type: form for form in forms}
        self._readers: dict[str, Callable[..., F]] = {}
        self._unknown = unknown

    def decode(self, data: Mapping[str, Any], **not_carried: Any) -> F:
        try:
            read = self._readers[data["type"]]
        except (KeyError, TypeError):  # no such type yet, or no object, or a type that is a list
            kind = data.get("type") if isinstance(data, Mapping) else None
            form = self._forms.get(kind) if isinstance(kind, str) else None
            if form is None:
                raise self._unknown(kind) from None
            read = self._readers[cast(str, kind)] = _compiled(form).from_wire
        return read(data, **not_carried) if not_carried else read(data)


def unknown_move(kind: object) -> RuleError:
    """The refusal of a command whose ``"type"`` names no move of the game (``TaggedUnion``)."""
    return RuleError("unknown_move", field="type")


def options_from_wire(options: type[F], data: object) -> F:
    """Options from a new-game request: missing keys take their defaults, each field's ``Wire``
    checks its value; ``RuleError("invalid_option")`` for a key that is not an option."""
    if data is None:
        return options()
    if not isinstance(data, Mapping):
        raise RuleError("invalid_option", field="options")
    names = _field_names(options)
    if not names.issuperset(data):
        unknown = next(key for key in data if key not in names)
        raise RuleError("invalid_option", field=f"options.{unknown}")
    return options.from_wire(data)


def _field_names(form: type[WireForm]) -> frozenset[str]:
    return frozenset(f.name for f in fields(form))


def stored_options(options: type[WireForm]) -> Wire:
    """How options stored in an event or a state are read: as a request's, but ``WireError``."""
    names = _field_names(options)

    def decode(data: object) -> WireForm:
        try:
            if type(data) is dict and names.issuperset(data):  # as the engine writes them: quicker
                return options.from_wire(data)
            return options_from_wire(options, data)
        except RuleError as error:
            raise WireError(f"bad options: {error.field}") from None

    return Wire(decode=decode)


_MISSING = object()
_NO_WIRE = Wire()


def _compiled(form: type[Any]) -> type[Any]:
    """``form``, its ``to_wire`` and ``from_wire`` written (see ``WireForm``)."""
    if vars(form)["to_wire"] is not WireForm.to_wire:
        return form
    namespace: dict[str, Any] = {"form": form, "MISSING": _MISSING, "WireError": WireError}
    namespace["Mapping"] = Mapping
    hints = get_type_hints(form, include_extras=True)
    items = [f"'type': {form.type!r}"] if isinstance(getattr(form, "type", None), str) else []
    params, reads, args, optional = [], [], [], []
    for field in fields(form):
        name, var = field.name, f"v_{field.name}"
        hint, wire = _unwrap(hints[name])
        if not wire.carried:
            params.append(f", {name}")
            args.append(f"{name}={name}")
            continue
        args.append(f"{name}={var}")
        written = _writer(hint, wire, f"self.{name}", namespace)
        if wire.omitted_if_none:
            optional += [f"if self.{name} is not None:", f"    wire[{name!r}] = {written}"]
        else:
            items.append(f"{name!r}: {written}")
        lines = _reader(hint, wire, var, name, namespace)
        if field.default is MISSING and field.default_factory is MISSING:
            reads += [f"{var} = get({name!r})", *lines]
            continue
        default = field.default_factory if field.default is MISSING else field.default
        call = "()" if field.default is MISSING else ""
        reads += [f"{var} = get({name!r}, MISSING)", f"if {var} is MISSING:"]
        reads += [f"    {var} = {_bind(namespace, default)}{call}", "else:", *_indent(lines)]
    source = "\n".join(
        [
            "def to_wire(self):",
            *(
                [f"    wire = {{{', '.join(items)}}}", *_indent(optional), "    return wire"]
                if optional
                else [f"    return {{{', '.join(items)}}}"]
            ),
            f"def from_wire(data{', *' if params else ''}{''.join(params)}):",
            "    get = data.get",
            *_indent(reads),
            f"    return form({', '.join(args)})",
        ]
    )
    # Like dataclasses' own __init__: straight-line code, as fast as writing it by hand.
    exec(compile(source, f"<wire form of {form.__qualname__}>", "exec"), namespace)
    form.to_wire = namespace["to_wire"]
    form.from_wire = staticmethod(namespace["from_wire"])
    return form


def _unwrap(hint: Any) -> tuple[Any, Wire]:
    if get_origin(hint) is Annotated:
        wire = next((m for m in hint.__metadata__ if isinstance(m, Wire)), _NO_WIRE)
        return hint.__origin__, wire
    return hint, _NO_WIRE


def _tuple_item(hint: Any) -> Any:
    """``X`` for ``tuple[X, ...]``, else ``None``."""
    args = get_args(hint)
    if get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0]
    return None


def _optional_arm(hint: Any) -> Any:
    """``X`` for ``X | None``, else ``None``."""
    args = get_args(hint)
    if get_origin(hint) in (UnionType, Union) and len(args) == 2 and type(None) in args:
        return args[0] if args[1] is type(None) else args[1]
    return None


def _is_form(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, WireForm)


def _bind(namespace: dict[str, Any], value: object) -> str:
    name = f"g{len(namespace)}"
    namespace[name] = value
    return name


def _indent(lines: list[str]) -> list[str]:
    return [f"    {line}" for line in lines]


def _writer(hint: Any, wire: Wire, subject: str, namespace: dict[str, Any], depth: int = 0) -> str:
    """The expression that writes ``subject``, of type ``hint``, as JSON."""
    if wire.encode is not None:
        return f"{_bind(namespace, wire.encode)}({subject})"
    if hint in (int, float, bool, str):
        return subject
    if (item := _tuple_item(hint)) is not None:
        each = f"x{depth}"
        written = _writer(*_unwrap(item), each, namespace, depth + 1)
        return f"list({subject})" if written == each else f"[{written} for {each} in {subject}]"
    if (arm := _optional_arm(hint)) is not None:
        written = _writer(*_unwrap(arm), subject, namespace, depth)
        return subject if written == subject else f"(None if {subject} is None else {written})"
    if _is_form(hint):
        return f"{subject}.to_wire()"
    raise TypeError(f"no JSON form for {hint!r}")


def _reader(
    hint: Any, wire: Wire, var: str, key: str, namespace: dict[str, Any], depth: int = 0
) -> list[str]:
    """Statements that read the JSON in ``var`` (under ``key``) to a value of type ``hint``."""

    def refuse(expected: str) -> str:
        return f"    raise WireError({f'{key}: expected {expected}, got '!r} + repr({var}))"

    lines: list[str]
    if wire.decode is not None:
        lines = [f"{var} = {_bind(namespace, wire.decode)}({var})"]
    elif hint in (int, bool, str):  # exact types: a bool is no int here, as in JSON
        lines = [f"if type({var}) is not {hint.__name__}:", refuse(hint.__name__)]
    elif hint is float:
        lines = [f"if type({var}) is int:", f"    {var} = float({var})"]
        lines += [f"elif type({var}) is not float:", refuse("a number")]
    elif (item := _tuple_item(hint)) is not None:
        lines = [f"if type({var}) is not list and type({var}) is not tuple:", refuse("a list")]
        each, built = f"x{depth}", f"items{depth}"
        item_lines = _indent(_reader(*_unwrap(item), each, key, namespace, depth + 1))
        if item in (int, bool, str):  # checked in place: the items are the values
            lines += [f"for {each} in {var}:", *item_lines, f"{var} = tuple({var})"]
        else:
            lines += [f"{built} = []", f"for {each} in {var}:", *item_lines]
            lines += [f"    {built}.append({each})", f"{var} = tuple({built})"]
    elif (arm := _optional_arm(hint)) is not None:
        arm_lines = _reader(*_unwrap(arm), var, key, namespace, depth)
        lines = [f"if {var} is not None:", *_indent(arm_lines)]
    elif _is_form(hint):
        lines = [f"if not isinstance({var}, Mapping):", refuse("an object")]
        lines += [f"{var} = {_bind(namespace, hint)}.from_wire({var})"]
    else:
        raise TypeError(f"no JSON form for {hint!r}")
    if wire.check is not None:
        lines.append(f"{var} = {_bind(namespace, wire.check)}({var})")
    return lines
