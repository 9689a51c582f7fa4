"""The catalogues in locale/ are complete, and the committed .mo files are compiled from them.

Messages are extracted from the code with Babel exactly as `make messages` does (same mapping
file, same keywords), so a gettext string added to the code and not yet translated fails here;
`make messages` adds it to every catalogue, and then it needs a translation.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import pytest
import rest_framework
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
LANGUAGES = ["en", "fr", "uk", "el", "hr", "ru"]
SOURCE_DIRS = ["config", "games", "players", "ai"]
# Django's lazy and no-op variants, on top of Babel's defaults (gettext, ngettext, pgettext, _ ...).
EXTRA_KEYWORDS = [
    "gettext_lazy",
    "gettext_noop",
    "ngettext_lazy:1,2",
    "pgettext_lazy:1c,2",
    "npgettext_lazy:1c,2,3",
]

Key = tuple[str | None, str]


def key(message_id: str | Sequence[str], context: str | bytes | None) -> Key:
    # Babel's .mo reader gives contexts as bytes.
    if isinstance(context, bytes):
        context = context.decode()
    return context, message_id if isinstance(message_id, str) else message_id[0]


# Babel leaves parse_mapping_cfg unannotated: it reads the (pattern, method) pairs of a mapping
# file and each pattern's options.
read_mapping: Callable[[IO[str]], tuple[list[tuple[str, str]], dict[str, dict[str, Any]]]] = (
    parse_mapping_cfg
)


def code_messages() -> dict[Key, str]:
    """Every gettext message of the code, with where it is."""
    with (LOCALE / "babel.cfg").open() as mapping_file:
        method_map, options_map = read_mapping(mapping_file)
    keywords = {**DEFAULT_KEYWORDS, **parse_keywords(EXTRA_KEYWORDS)}
    found: dict[Key, str] = {}
    for directory in SOURCE_DIRS:
        for filename, lineno, message, _comments, context in extract_from_dir(
            ROOT / directory, method_map, options_map, keywords=keywords
        ):
            found.setdefault(key(message, context), f"{directory}/{filename}:{lineno}")
    return found


def read_catalogue(path: Path, lang: str) -> Catalog:
    with path.open("rb") as po_file:
        return read_po(po_file, locale=lang)


def untranslated(catalogue: Catalog) -> list[str]:
    problems = []
    for message in catalogue:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            problems.append(f"untranslated: {message.id!r}")
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
    return problems


def translations(catalogue: Catalog) -> dict[Key, object]:
    # Plural forms come back as a list from a .mo and a tuple from a .po: compare them as tuples.
    return {
        key(m.id, m.context): tuple(m.string) if isinstance(m.string, list) else m.string
        for m in catalogue
        if m.id
    }


def test_the_extraction_uses_the_makefile_keywords() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for keyword in EXTRA_KEYWORDS:
        assert f"-k {keyword}" in makefile, keyword
    assert "-F locale/babel.cfg" in makefile
    assert " ".join(SOURCE_DIRS) in makefile


def test_every_language_has_a_catalogue() -> None:
    assert [code for code, _name in settings.LANGUAGES] == LANGUAGES
    assert Path(settings.LOCALE_PATHS[0]) == LOCALE
    for lang in LANGUAGES:
        assert (LOCALE / lang / "LC_MESSAGES" / "django.po").is_file(), lang
        assert (LOCALE / lang / "LC_MESSAGES" / "django.mo").is_file(), lang


def test_code_extraction_finds_the_messages() -> None:
    found = code_messages()
    # A sample from each kind of source: errors, presenters, models, settings, a context.
    for expected in [
        (None, "It is not your turn."),
        (None, "No open box scores: you must sacrifice one"),
        (None, "Lost round!"),
        (None, "Humans + 1 AI"),
        (None, "Dés 10 000"),
        (None, "Croatian"),
        ("yatzy box", "Yatzy"),
        (None, "Yatzy"),
    ]:
        assert expected in found, expected


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_has_every_message_of_the_code_translated(lang: str) -> None:
    catalogue = read_catalogue(LOCALE / lang / "LC_MESSAGES" / "django.po", lang)
    have = translations(catalogue)
    missing = [f"{where}: {k!r}" for k, where in code_messages().items() if k not in have]
    assert not missing, "not in the catalogue (run `make messages`):\n" + "\n".join(missing)
    problems = untranslated(catalogue)
    assert not problems, "\n".join(problems)
    # Placeholders (%(name)s, {name}) and the like match between msgid and msgstr.
    errors = [(m.id, [str(e) for e in errs]) for m, errs in catalogue.check()]
    assert not errors, errors
    if lang == "en":
        assert all(m.string == m.id for m in catalogue if m.id)


@pytest.mark.parametrize(
    "po_path",
    sorted(LOCALE.glob("*/LC_MESSAGES/django.po")) + sorted(LOCALE.glob("drf/*/LC_MESSAGES/*.po")),
    ids=lambda path: str(path.relative_to(LOCALE)),
)
def test_compiled_catalogue_matches_its_source(po_path: Path) -> None:
    lang = po_path.parents[1].name
    source = translations(read_catalogue(po_path, lang))
    mo_path = po_path.with_suffix(".mo")
    assert mo_path.is_file(), f"{mo_path} is missing: run `make messages`"
    with mo_path.open("rb") as mo_file:
        compiled = translations(read_mo(mo_file))
    assert compiled == source, f"{mo_path} is stale: run `make messages`"


def test_croatian_covers_django_rest_framework() -> None:
    """DRF ships no Croatian: locale/drf/hr translates every message of its English catalogue."""
    english = Path(rest_framework.__file__).parent / "locale" / "en" / "LC_MESSAGES" / "django.mo"
    with english.open("rb") as mo_file:
        drf_messages = {key(m.id, m.context) for m in read_mo(mo_file) if m.id}
    assert not (Path(rest_framework.__file__).parent / "locale" / "hr").exists()
    assert LOCALE / "drf" in [Path(path) for path in settings.LOCALE_PATHS]
    catalogue = read_catalogue(LOCALE / "drf" / "hr" / "LC_MESSAGES" / "django.po", "hr")
    missing = drf_messages - set(translations(catalogue))
    assert not missing, sorted(missing, key=str)
    assert not untranslated(catalogue)
    assert not [m.id for m, _errors in catalogue.check()]


def scripts(word: str) -> set[str]:
    return {unicodedata.name(char).split()[0] for char in word if char.isalpha()}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_word_mixes_alphabets(lang: str) -> None:
    """A Latin "a" or "o" inside a Cyrillic or Greek word looks right and is wrong."""
    catalogue = read_catalogue(LOCALE / lang / "LC_MESSAGES" / "django.po", lang)
    mixed = [
        (message.id, word)
        for message in catalogue
        if message.id
        for word in re.findall(r"\w+", str(message.string))
        if len(scripts(word)) > 1
    ]
    assert not mixed, mixed
