"""What a client reads of its budget (config.web.rate_limit): ``RateLimit-Policy`` and ``RateLimit``
on every answer a throttle counted, in the structured-field form of the IETF httpapi draft, one
member per throttle; none on an answer that no throttle counted."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.http import HttpResponseBase
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIClient, APIRequestFactory
from rest_framework.views import APIView

from config.web.rate_limit import RateLimitMiddleware
from config.web.throttling import RateThrottle
from tests.doubles import throttle_rates
from tests.factories import MakeClient

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
ME = "/api/v1/accounts/me/"
_MEMBER = re.compile(r'^"([a-z]+)"((?:;[a-z]+=\d+)+)$')


def members(value: str) -> dict[str, dict[str, int]]:
    """A structured-field list of ``"name";key=integer...`` members, by name."""
    found: dict[str, dict[str, int]] = {}
    for member in value.split(", "):
        match = _MEMBER.match(member)
        assert match, value
        params = (part.split("=") for part in match[2].strip(";").split(";"))
        found[match[1]] = {key: int(number) for key, number in params}
    return found


def budget(
    response: HttpResponseBase,
) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    return members(response["RateLimit-Policy"]), members(response["RateLimit"])


def test_each_answer_says_what_is_left_and_the_429_when_to_return(anon: APIClient) -> None:
    with throttle_rates(anon="3/min"):
        answers = [anon.get(GAMES) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    for answer, left in zip(answers, (2, 1, 0, 0), strict=True):
        policies, remaining = budget(answer)
        assert policies == {"anon": {"q": 3, "w": 60}}
        assert remaining["anon"]["r"] == left
        assert 0 < remaining["anon"]["t"] <= 60
    refused = answers[-1]
    assert budget(refused)[1]["anon"]["t"] == int(refused["Retry-After"])
    assert refused.json()["retry_after"] == int(refused["Retry-After"])


def test_an_account_reads_its_own_policy(make_client: MakeClient) -> None:
    ann = make_client()
    with throttle_rates(user="5/min"):
        first, second = ann.get(ME), ann.get(ME)
    assert budget(first) == ({"user": {"q": 5, "w": 60}}, {"user": {"r": 4, "t": 60}})
    assert budget(second)[1]["user"]["r"] == 3


def test_a_scope_is_the_policys_name(make_client: MakeClient, anon: APIClient) -> None:
    ann = make_client("ann")
    with throttle_rates(expensive="7/min"):
        answer = anon.get("/api/v1/players/ann/stats/")
        refused = ann.post(
            "/api/v1/accounts/token/", {"username": ann.username, "password": "wrong"}
        )
    assert answer.status_code == 200
    assert budget(answer) == ({"expensive": {"q": 7, "w": 60}}, {"expensive": {"r": 6, "t": 60}})
    # A refusal the view gave (a wrong password) was counted: it says so too.
    assert refused.status_code == 401
    assert set(budget(refused)[0]) == {"auth"}


def test_answers_no_throttle_counted_carry_none(anon: APIClient) -> None:
    for answer in (
        anon.get("/health/live"),
        anon.get("/api/v1/no-such-thing/"),  # Django's 404: no view ran
        # a bad token is refused before any throttle counts the request
        anon.get(ME, HTTP_AUTHORIZATION="Token dice_nonsense"),
    ):
        assert "RateLimit" not in answer and "RateLimit-Policy" not in answer, answer.status_code
    assert anon.get(ME, HTTP_AUTHORIZATION="Token dice_nonsense").status_code == 401


class _Unthrottled(APIView):
    throttle_classes: list[Any] = []
    permission_classes: list[Any] = []

    def get(self, request: Request) -> Response:
        return Response({})


class _ExpensiveToo(RateThrottle):
    """A second throttle of another scope, as a view with two would have."""

    def allow_request(self, request: Request, view: Any) -> bool:
        return super().allow_request(request, SimpleNamespace(throttle_scope="expensive"))


class _TwoThrottles(_Unthrottled):
    throttle_classes = [RateThrottle, _ExpensiveToo]


def _through_middleware(view: type[APIView]) -> HttpResponseBase:
    request = APIRequestFactory().get("/api/v1/test/")
    response = RateLimitMiddleware(view.as_view())(request)
    assert isinstance(response, HttpResponseBase)  # a sync view's: never awaitable
    return response


def test_a_view_without_throttles_carries_none() -> None:
    answer = _through_middleware(_Unthrottled)
    assert answer.status_code == 200
    assert "RateLimit" not in answer and "RateLimit-Policy" not in answer


def test_several_throttles_send_each_policy_and_budget() -> None:
    with throttle_rates(anon="5/min", expensive="2/min"):
        answers = [_through_middleware(_TwoThrottles) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    policies, remaining = budget(answers[0])
    assert policies == {"anon": {"q": 5, "w": 60}, "expensive": {"q": 2, "w": 60}}
    assert {name: left["r"] for name, left in remaining.items()} == {"anon": 4, "expensive": 1}
    policies, remaining = budget(answers[-1])
    assert {name: left["r"] for name, left in remaining.items()} == {"anon": 2, "expensive": 0}
    assert remaining["expensive"]["t"] == int(answers[-1]["Retry-After"])
