"""``/`` greets a person: what the server is, and links to the web client, the API's documentation,
its schema and the kinds it plays, in the language asked for, under the pages' policy."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.api.test_page_policy import directives

pytestmark = pytest.mark.django_db

LINKS = ["/play/", "/api/v1/docs/", "/api/v1/schema/", "/api/v1/kinds/"]


def links(page: str) -> list[str]:
    return re.findall(r'<a href="([^"?]+)">', page)


def test_the_home_page_links_where_to_go() -> None:
    response = Client().get("/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert '<html lang="en">' in page
    assert "<title>Dice games server</title>" in page
    assert links(page) == LINKS
    # Every link answers.
    for href in LINKS:
        assert Client().get(href).status_code == 200, href
    # The page in each of the six languages, each named in its own.
    assert re.findall(r'href="\?lang=(\w+)"', page) == ["en", "fr", "uk", "el", "hr", "ru"]


def test_the_home_page_runs_no_inline_script_or_style() -> None:
    response = Client().get("/")
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert "camera=()" in response["Permissions-Policy"]
    page = response.content.decode()
    assert "<script" not in page and "<style" not in page and " style=" not in page


@pytest.mark.parametrize(
    "ask",
    [{"QUERY_STRING": "lang=fr"}, {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9"}],
    ids=["query", "accept-language"],
)
def test_the_home_page_speaks_french(ask: dict[str, str]) -> None:
    page = Client().get("/", **ask).content.decode()  # type: ignore[arg-type]
    assert '<html lang="fr">' in page
    assert "Jouer dans le navigateur" in page
    assert "Play in the browser" not in page
    assert links(page) == LINKS


def test_only_the_home_page_has_the_policy_of_its_path() -> None:
    """``/`` is matched whole: a path the server does not serve gets no page policy from it."""
    response = Client().get("/nowhere/")
    assert response.status_code == 404
    assert "Content-Security-Policy" not in response


def test_the_home_page_only_reads() -> None:
    assert Client().post("/").status_code == 405
