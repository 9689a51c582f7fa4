"""What makes two account names the same, or look the same, and what a display name may hold.

A username is stored NFKC-normalised and unique in any case. Two names with the same Unicode TR39
skeleton, case-folded, look alike and are one name: the prototypes come from Unicode's
``confusables.txt``, since no maintained PyPI package computes the skeleton. Folding after the
skeleton costs ``I`` (a prototype ``l``) and ``L`` folding together. A display name is shown as
typed, so what would change how the text around it reads is stripped (not refused).
"""

from __future__ import annotations

import hashlib
import unicodedata
from functools import cache
from pathlib import Path

from django.conf import settings
from django.utils.crypto import salted_hmac

DATA = Path(__file__).resolve().parent / "data" / "confusables.txt"

#: Format characters a script needs (Persian, Indic; emoji sequences): kept.
JOINERS = frozenset({"\u200c", "\u200d"})
#: Controls, format characters (every bidirectional control among them), line and paragraph
#: separators, unassigned code points and surrogates.
STRIPPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cn", "Cs"})


@cache
def _prototypes() -> dict[str, str]:
    table: dict[str, str] = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        source, target = line.split(";")
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return table


def username_normalise(username: str) -> str:
    """The form a username is stored and looked up in."""
    return unicodedata.normalize("NFKC", username)


def username_skeleton(username: str) -> str:
    """TR39's ``skeleton(X)`` of the normalised name, then case-folded."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", username_normalise(username))
    skeleton = unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in decomposed))
    return unicodedata.normalize("NFD", skeleton.casefold())


def skeleton_key(username: str) -> str:
    """What the account stores of its name's skeleton (which can be too long for an index)."""
    return hashlib.sha256(username_skeleton(username).encode("utf-8")).hexdigest()


PLACEHOLDER_PREFIX = "deleted-"


def looks_like_staff(name: str) -> bool:
    """Whether ``name`` looks like one of ``RESERVED_NAMES`` (its skeleton, in either case)."""
    keys = {skeleton_key(name), skeleton_key(name.casefold())}
    return any(skeleton_key(kept) in keys for kept in settings.RESERVED_NAMES)


def looks_like_placeholder(username: str) -> bool:
    """Whether the name starts with the placeholder prefix in any case, width or lookalike."""
    return username_skeleton(username).startswith(username_skeleton(PLACEHOLDER_PREFIX))


def hold_digests(username: str) -> tuple[str, str]:
    """Keyed hashes of the name as its owner would type it again and of its skeleton (both:
    ``m``'s prototype is ``rn``, not ``M``). Keyed: a copy of the database does not tell the
    names."""
    typed = username_normalise(username).casefold()
    return _keyed(f"name:{typed}"), _keyed(f"skeleton:{username_skeleton(username)}")


def _keyed(value: str) -> str:
    return salted_hmac("players.identity.hold_digests", value, algorithm="sha256").hexdigest()


def display_name_clean(name: str) -> str:
    """The display name without control, bidi and other invisible format characters, NFC."""
    kept = (c for c in name if c in JOINERS or unicodedata.category(c) not in STRIPPED_CATEGORIES)
    return unicodedata.normalize("NFC", "".join(kept)).strip()
