"""Every error under /api/v1/ is an RFC 9457 problem (application/problem+json): the API's
refusals, Django's own answers (no route, a malformed id, a method, a body too large, a server
error), in every language; each ``type`` is the code's page of the error catalogue."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from config.vocabulary.problems import BY_CODE
from config.vocabulary.refusals import Refusal
from tests.factories import MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"
ERRORS = "/api/v1/errors/"


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["type"] == f"http://testserver{ERRORS}{code}/"
    assert (body["status"], body["code"]) == (status, code)
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert "field" in body
    answer: dict[str, Any] = body
    return answer


def test_a_refusal_is_a_problem_whose_type_is_the_codes_page(make_client: MakeClient) -> None:
    ann = make_client()
    game = api_game(ann)
    ann.ok("post", game_url(game["id"], "moves/"), {"type": "roll"}, status=201)
    refused = ann.post(game_url(game["id"], "moves/"), {"type": "score", "box": "nope"})
    body = problem(refused, 400, "unknown_box")
    assert body["field"] == "box"
    assert body["title"] == body["detail"] == "There is no such box on the score sheet."

    page = APIClient().get(body["type"])
    assert page.status_code == 200
    assert page.json() == {
        "code": "unknown_box",
        "status": 400,
        "title": "There is no such box on the score sheet.",
        "type": body["type"],
        "field": "box",
        "details": ["There is no such box on the score sheet."],
    }


def test_validation_errors_keep_their_list(anon: APIClient) -> None:
    body = problem(anon.post("/api/v1/accounts/register/", {"username": ""}), 400, "invalid_input")
    assert {error["field"] for error in body["errors"]} == {"username", "password"}


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/not-a-uuid/",
        "/api/v1/games/not-a-uuid/moves/",
        "/api/v1/nothing-here/",
        "/api/v1/tournaments/twelve/",
    ],
)
def test_djangos_own_404_is_a_problem(anon: APIClient, path: str) -> None:
    body = problem(anon.get(path, HTTP_ACCEPT_LANGUAGE="fr"), 404, "not_found")
    assert body["detail"] == "Non trouvé."


def test_djangos_404_is_a_problem_in_debug_too(anon: APIClient) -> None:
    with override_settings(DEBUG=True):
        problem(anon.get("/api/v1/games/not-a-uuid/"), 404, "not_found")


def test_a_missing_game_keeps_its_own_words(anon: APIClient) -> None:
    body = problem(anon.get(game_url("00000000-0000-4000-8000-000000000000")), 404, "not_found")
    assert body["detail"] == "No such game."
    assert body["title"] == "Not found."  # one title per code


def test_method_not_allowed_is_a_problem_with_allow(make_client: MakeClient) -> None:
    ann = make_client()
    response = ann.delete("/api/v1/games/")
    body = problem(response, 405, "method_not_allowed")
    assert "DELETE" in body["detail"]
    assert "POST" in response["Allow"]


def test_a_body_too_large_is_413(make_client: MakeClient) -> None:
    ann = make_client()
    with override_settings(MAX_REQUEST_BODY_BYTES=1000):
        response = ann.post("/api/v1/games/", {"kind": "yatzy", "padding": "x" * 2000})
    assert problem(response, 413, "request_too_large")["params"] == {"limit": 1000}


def test_a_server_error_is_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    from games import selectors

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(selectors, "game_get", broken)
    client = APIClient(raise_request_exception=False)
    response = client.get(game_url("00000000-0000-4000-8000-000000000000"))
    body = problem(response, 500, "server_error")
    assert "boom" not in response.content.decode()
    assert body["field"] is None


def test_a_client_may_ask_for_problem_json_alone(anon: APIClient) -> None:
    response = anon.get("/api/v1/accounts/me/", HTTP_ACCEPT=PROBLEM)
    problem(response, 401, "not_authenticated")


def test_answers_outside_the_api_are_djangos(anon: APIClient) -> None:
    response = anon.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_the_catalogue_lists_every_code_in_the_requests_language(anon: APIClient) -> None:
    response = anon.get(ERRORS, HTTP_ACCEPT_LANGUAGE="uk")
    assert response.status_code == 200
    assert response["Content-Language"] == "uk"
    listed = {entry["code"]: entry for entry in response.json()["errors"]}
    assert set(listed) == {refusal.code for refusal in Refusal}
    box_used = listed["box_used"]
    assert box_used["status"] == 409
    assert box_used["title"] == "Ця клітинка вже заповнена."
    assert box_used["type"] == f"http://testserver{ERRORS}box_used/"
    # not_found is said of a game, a seek, a tournament, an account's export, a page, an error
    # code, a token: every one listed
    assert len(listed["not_found"]["details"]) == sum(r.code == "not_found" for r in Refusal) == 7
    assert listed["idempotency_key_reused"]["status"] == 422
    assert listed["precondition_failed"]["status"] == 412


def test_an_unknown_code_has_no_page(anon: APIClient) -> None:
    body = problem(anon.get(f"{ERRORS}no_such_code/"), 404, "not_found")
    assert body["detail"] == "There is no error with this code."


def test_a_code_has_one_status() -> None:
    """A problem's type names its status: entries sharing a code share it."""
    for refusal in Refusal:
        assert refusal.status == BY_CODE[refusal.code].status, refusal
