"""The pages' Content-Security-Policy (config.web.page_policy): the web client and the admin run no
script but this origin's files (the web client's browser tests run it under the policy and fail
on any violation); the API's JSON needs none."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def directives(header: str) -> dict[str, str]:
    parts = (part.strip().split(" ", 1) for part in header.split(";"))
    return {name: rest for name, rest in parts}


@pytest.mark.parametrize("path", ["/play/", "/admin/login/"])
def test_the_pages_run_only_this_origins_scripts(path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 200
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["base-uri"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    assert "camera=()" in response["Permissions-Policy"]
    assert response["Referrer-Policy"] == "same-origin"


def test_the_web_client_has_no_inline_style_either() -> None:
    policy = directives(Client().get("/play/")["Content-Security-Policy"])
    assert policy["style-src"] == "'self'"


def test_the_api_answers_without_a_page_policy() -> None:
    response = Client().get("/api/v1/errors/")
    assert "Content-Security-Policy" not in response
