"""Admin actions that ask for a reason before they act (a page, then ``apply``), and log it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.vocabulary.errors import ApiError

M = TypeVar("M", bound=Model)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept in the admin's log with the action."),
    )


def with_reason(
    model_admin: admin.ModelAdmin,  # type: ignore[type-arg]
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    question: str,
    submit: str,
    act: Callable[[str], None],
) -> TemplateResponse | None:
    """Ask for the reason, or act with it once given: None sends the admin back to the list."""
    return with_form(
        model_admin,
        request,
        queryset,
        action=action,
        question=question,
        submit=submit,
        form=ReasonForm,
        act=lambda data: act(data["reason"]),
    )


def with_form(
    model_admin: admin.ModelAdmin,  # type: ignore[type-arg]
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    question: str,
    submit: str,
    form: type[ReasonForm],
    act: Callable[[dict[str, Any]], None],
    form_kwargs: dict[str, Any] | None = None,
) -> TemplateResponse | None:
    """``with_reason`` with a form that asks more (a subclass of ``ReasonForm``)."""
    bound = form(request.POST if "apply" in request.POST else None, **(form_kwargs or {}))
    if bound.is_valid():
        act(bound.cleaned_data)
        return None
    context = {
        **model_admin.admin_site.each_context(request),
        "title": question,
        "question": question,
        "submit": submit,
        "queryset": queryset,
        "form": bound,
        "action": action,
        "opts": model_admin.model._meta,
    }
    return TemplateResponse(request, "admin/dice/reason.html", context)


def each_logged(
    model_admin: admin.ModelAdmin[M],
    request: HttpRequest,
    queryset: QuerySet[M],
    act: Callable[[M], str],
    name: Callable[[M], str] = str,
) -> None:
    """``act`` on every object, logging its message; a refusal is shown and the others go on."""
    done = 0
    for obj in queryset:
        try:
            message = act(obj)
        except ApiError as exc:
            model_admin.message_user(request, f"{name(obj)}: {exc.detail}", messages.ERROR)
            continue
        model_admin.log_change(request, obj, message)
        done += 1
    if done:
        model_admin.message_user(request, gettext("Done: %(n)d.") % {"n": done})


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Rows written only by the services (ratings, seeks): shown, never edited."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
