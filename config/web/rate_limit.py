"""``RateLimit-Policy`` and ``RateLimit`` (draft-ietf-httpapi-ratelimit-headers) on every answer
a throttle counted, from what its own round trip returned (:func:`note`): no cache is read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

POLICY_HEADER = "RateLimit-Policy"
HEADER = "RateLimit"
_NOTED = "_rate_limit_budgets"


@dataclass(frozen=True)
class Budget:
    """One throttle's account of one request: its policy and what is left of it."""

    policy: str  # the throttle's scope
    quota: int
    window: int  # seconds
    remaining: int
    reset: int  # seconds until the window closes

    @classmethod
    def counted(cls, policy: str, quota: int, window: int, count: int, left: float) -> Budget:
        """The budget after request ``count``, its reset rounded up as DRF's ``Throttled`` wait."""
        return cls(policy, quota, window, max(quota - count, 0), math.ceil(max(left, 0.001)))


def note(request: HttpRequest, budget: Budget) -> None:
    budgets: list[Budget] = request.__dict__.setdefault(_NOTED, [])
    budgets.append(budget)


class RateLimitMiddleware(MiddlewareMixin):  # sync and async: an open stream holds no thread
    """The budgets the request's throttles noted, as structured-field lists, one member each."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        budgets: list[Budget] = request.__dict__.get(_NOTED, [])
        if budgets:
            response[POLICY_HEADER] = ", ".join(
                f'"{b.policy}";q={b.quota};w={b.window}' for b in budgets
            )
            response[HEADER] = ", ".join(
                f'"{b.policy}";r={b.remaining};t={b.reset}' for b in budgets
            )
        return response
