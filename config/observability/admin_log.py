"""What a custom admin action did, in the admin's own history (``LogEntry``): who, when, on which
object, and what: the object's "History" page and the admin's "Recent actions" show it, as they
show every change made through a form."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


def log_action(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    obj: Model,
    action: str | StrPromise,
    outcome: str | StrPromise,
) -> None:
    """Record that this request's admin ran ``action`` (its description) on ``obj``, and how it
    went, as a change entry in the admin's language."""
    model_admin.log_change(request, obj, f"{action}: {outcome}")
