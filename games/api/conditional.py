"""Conditional requests on a game: its strong ``ETag`` and ``If-Match`` (a move's precondition).

A strong tag names one representation byte for byte. A game's body is a function of its version,
its taken seats and status (a join or a start changes no version), the seats' names (an account
may be renamed or deleted), the language and the viewer (``your_seats``), which ``Vary`` names;
the tag holds them all. The analysis' and the replay's tags hold what theirs are functions of.

``If-Match`` on a move: one of this game's tags (``"v12..."``, in whichever language and for
whichever viewer: all name the state at version 12), a bare version (``12``) or ``*``. A tag of
another version answers 412; a weak tag (``W/"..."``) never matches (RFC 9110's strong comparison).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from django.utils import translation
from rest_framework.request import Request

from config.vocabulary.refusals import Refusal
from games.models import Game

#: Never a version: the precondition a weak tag sets cannot be met.
UNMATCHABLE = -1
# A version has at most 9 digits; more is no version of ours (and int() refuses past 4300).
_TAG = re.compile(r'\s*(W/)?"v?(\d{1,9})(?:\.[^"]*)?"\s*')
_BARE = re.compile(r"\s*(\d{1,9})\s*")


def game_etag(game: Game, request: Request) -> str:
    seats = game.seats.all()
    taken = sum(1 for seat in seats if not seat.is_open)
    names = _names_digest([seat.display_name for seat in seats])
    viewer = request.user.pk if request.user.is_authenticated else 0
    language = translation.get_language() or "en"
    return f'"v{game.version}.s{taken}.{game.status}.{names}.{language}.u{viewer}"'


def analysis_etag(game: Game, names: Sequence[str]) -> str:
    """The tag of the game's analysis and of its picture, in the active language."""
    language = translation.get_language() or "en"
    return f'"a{game.version}.{language}.{_names_digest(names)}"'


def _names_digest(names: Sequence[str]) -> str:
    return hashlib.blake2b("\x1f".join(names).encode(), digest_size=6).hexdigest()


def replay_etag(game: Game, at: int) -> str:
    """The tag of the game's state after event ``at``, in the active language."""
    language = translation.get_language() or "en"
    return f'"r{at}.v{game.version}.{language}"'


def if_match_version(request: Request) -> int | None:
    """The version ``If-Match`` requires, None without one (or ``*``); ``UNMATCHABLE`` for a
    weak tag; the first tag of a list decides."""
    header = request.headers.get("If-Match")
    if not header or header.strip() == "*":
        return None
    first = header.split(",")[0]
    tag = _TAG.fullmatch(first)
    if tag is not None:
        return UNMATCHABLE if tag.group(1) else int(tag.group(2))
    bare = _BARE.fullmatch(first)
    if bare is None:
        raise Refusal.INVALID_IF_MATCH.error()
    return int(bare.group(1))


def not_modified(request: Request, etag: str) -> bool:
    """``If-None-Match`` names this representation (weak comparison: a ``W/`` prefix ignored)."""
    header = request.headers.get("If-None-Match", "")
    listed = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return etag in listed or "*" in listed
