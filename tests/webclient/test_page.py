"""/play/ serves the client's one page, which loads its modules from the static files (no build
step); the modules and the style sheet are there. The browser tests (test_browser.py) play it."""

from __future__ import annotations

import re

from django.contrib.staticfiles import finders
from django.test import Client

from games.kinds import KINDS

MODULES = [
    "account.js",
    "analysis.js",
    "app.js",
    "api.js",
    "attention.js",
    "dom.js",
    "drawings.js",
    "ending.js",
    "game.js",
    "generic.js",
    "i18n.js",
    "kinds.js",
    "notes.js",
    "options.js",
    "profile.js",
    "proof.js",
    "seeks.js",
    "tenk.js",
    "tournaments.js",
    "yatzy.js",
]


def test_the_page_loads_the_client_modules(client: Client) -> None:
    response = client.get("/play/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert '<script type="module" src="/static/webclient/app.js">' in page
    assert 'href="/static/webclient/style.css"' in page
    # The six languages of locale/, each by its own name.
    assert re.findall(r'<option value="(\w+)">', page) == ["en", "fr", "uk", "el", "hr", "ru"]
    # The kinds and the turn clocks are the API's (GET kinds/, test_browser.py): none on the page.
    assert "<body>" in page
    for kind in KINDS.values():
        assert kind.code not in page and str(kind.label) not in page


def test_every_module_and_import_is_a_static_file() -> None:
    for name in [*MODULES, "style.css"]:
        assert finders.find(f"webclient/{name}"), name
    for name in MODULES:
        path = finders.find(f"webclient/{name}")
        assert path is not None, name
        with open(path, encoding="utf-8") as source:
            for imported in re.findall(r'from "\./([\w.]+)"', source.read()):
                assert imported in MODULES, (name, imported)


# The modules that may name a kind: each kind's drawing, the table of them, the words.
NAMING_KINDS = {"yatzy.js", "tenk.js", "drawings.js", "i18n.js"}


def test_only_the_kinds_own_modules_name_a_kind() -> None:
    """The client builds its forms, boards and leaderboards from GET kinds/: no other module
    keeps a copy of the kinds (their codes or names), so a kind the server adds needs no change
    there (drawings.js draws one it does not know plainly)."""
    for name in sorted(set(MODULES) - NAMING_KINDS):
        path = finders.find(f"webclient/{name}")
        assert path is not None, name
        with open(path, encoding="utf-8") as source:
            text = source.read()
        for kind in KINDS.values():
            assert kind.code not in text and str(kind.label) not in text, (name, kind.code)


def test_the_page_only_reads(client: Client) -> None:
    assert client.post("/play/").status_code == 405


def test_the_client_words_are_in_all_six_languages() -> None:
    """i18n.js holds the page's own words (the server's come translated): every key in every
    language, none left in English by mistake."""
    path = finders.find("webclient/i18n.js")
    assert path is not None
    with open(path, encoding="utf-8") as source:
        table = source.read().split("const WORDS = {", 1)[1].split("\n};", 1)[0]
    blocks = dict(re.findall(r"\n  (\w\w): \{(.*?)\n  \},", table, re.S))
    assert list(blocks) == ["en", "fr", "uk", "el", "hr", "ru"]
    words = {lang: dict(re.findall(r'(\w+): "([^"]*)"', block)) for lang, block in blocks.items()}
    for lang in ["fr", "uk", "el", "hr", "ru"]:
        assert words[lang].keys() == words["en"].keys(), lang
    for lang in ["uk", "el", "ru"]:
        # Other alphabets: a word left in English (Latin letters only) is untranslated.
        latin = [k for k, w in words[lang].items() if re.fullmatch(r"[A-Za-z .,:!?']+", w)]
        assert latin == [], (lang, latin)
