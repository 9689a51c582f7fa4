"""The schema's entries for what drf-spectacular cannot see: the plain Django views (health,
metrics, kept plain on purpose) and DRF's session login for the browsable API.
"""

from __future__ import annotations

from typing import Any

_STATUS = {
    "type": "object",
    "properties": {
        "status": {"type": "string", "enum": ["ok", "error"]},
        "checks": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["status"],
}
_TEXT = {"schema": {"type": "string"}}
_REFUSAL = {"description": "Not from an operator: 'internal_only'."}


def _get(summary: str, description: str, responses: dict[str, Any], tag: str) -> dict[str, Any]:
    return {
        "get": {
            "operationId": summary.lower().replace(" ", "_").replace("-", "_"),
            "summary": summary,
            "description": description,
            "tags": [tag],
            "security": [{}],
            "responses": responses,
        }
    }


def _json(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _STATUS}}}


PATHS: dict[str, dict[str, Any]] = {
    "/health/live": _get(
        "Liveness", "The process answers. No database, no Redis.",
        {"200": _json("Alive.")}, "health",
    ),
    "/health/ready": _get(
        "Readiness",
        "The database and Redis answer; each process re-checks at most every "
        "HEALTH_CACHE_SECONDS. 200 only when every check is ok (also at /health/).",
        {"200": _json("Ready."), "503": _json("A check failed.")},
        "health",
    ),
    "/health/deep": _get(
        "Deep health",
        "Readiness and the Celery workers. Operators only: Authorization: Bearer "
        "INTERNAL_TOKEN, else from the machine itself.",
        {"200": _json("All ok."), "503": _json("A check failed."), "403": _REFUSAL},
        "health",
    ),
    "/metrics": _get(
        "Prometheus metrics",
        "The service's metrics in Prometheus's text format. Operators only, as /health/deep.",
        {
            "200": {"description": "Metrics.", "content": {"text/plain": _TEXT}},
            "403": _REFUSAL,
        },
        "health",
    ),
    "/api-auth/login/": _get(
        "Browsable API sign-in",
        "Django REST framework's session sign-in page (HTML) for the browsable API, in "
        "development; a form POST signs in. Guarded as every sign-in (per address and account).",
        {"200": {"description": "The sign-in page.", "content": {"text/html": {}}}},
        "accounts",
    ),
}  # fmt: skip


def add_plain_views(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    result.setdefault("paths", {}).update(PATHS)
    return result
