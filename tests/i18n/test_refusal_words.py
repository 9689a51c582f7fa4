"""Every refusal of the vocabulary (config.vocabulary.refusals) has its words in all six languages:
ours in locale/ (non-empty, not fuzzy), Django REST framework's in its own catalogues (and
locale/drf/hr,
as it ships no Croatian). tests/api/test_refusals.py checks every code raised has its entry."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import rest_framework
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from django.utils import translation

from config.vocabulary.refusals import Refusal
from tests.i18n.test_catalogues import LANGUAGES, LOCALE, read_catalogue

DRF_LOCALE = Path(rest_framework.__file__).parent / "locale"


def msgid(refusal: Refusal) -> str:
    with translation.override(None):  # no catalogue: the words as the code writes them
        return str(refusal.message)


@cache
def catalogue(lang: str, drf: bool) -> Catalog:
    if drf and lang == "hr":
        return read_catalogue(LOCALE / "drf" / "hr" / "LC_MESSAGES" / "django.po", lang)
    if drf:
        with (DRF_LOCALE / lang / "LC_MESSAGES" / "django.mo").open("rb") as mo_file:
            return read_mo(mo_file)
    return read_catalogue(LOCALE / lang / "LC_MESSAGES" / "django.po", lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_is_translated(lang: str) -> None:
    problems = []
    for refusal in Refusal:
        words = msgid(refusal)
        message = catalogue(lang, refusal.value.drf_words).get(words)
        if message is None or not message.string:
            problems.append(f"{refusal.name}: {words!r} is not translated")
        elif message.fuzzy:
            problems.append(f"{refusal.name}: {words!r} is fuzzy")
    assert not problems, "\n".join(problems)


def test_the_check_sees_a_missing_translation() -> None:
    """The lookup above finds the words it looks for, and misses words that no catalogue has."""
    box_used = catalogue("fr", False).get(msgid(Refusal.BOX_USED))
    drf_not_found = catalogue("fr", True).get(msgid(Refusal.NOT_FOUND))
    drf_not_found_hr = catalogue("hr", True).get(msgid(Refusal.NOT_FOUND))
    assert box_used is not None and drf_not_found is not None and drf_not_found_hr is not None
    assert box_used.string == "Cette case est déjà remplie."
    assert drf_not_found.string == "Non trouvé."
    assert drf_not_found_hr.string
    assert catalogue("hr", False).get("This box is not in any catalogue.") is None


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_server_says_every_refusal_in_the_language(lang: str) -> None:
    with translation.override(lang):
        said = {refusal.name: str(refusal.message) for refusal in Refusal}
    untranslated = [name for name, words in said.items() if words == msgid(Refusal[name])]
    assert not untranslated, untranslated
