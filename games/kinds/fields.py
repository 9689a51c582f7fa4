"""The ``kind`` of a game, seek or tournament, in the database, the API's input and its filters:
choices read from the registry at each use (``CallableChoiceIterator``), never frozen into a
migration or a class, so that a kind registered later (a test's) is valid everywhere at once.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models
from django.utils.choices import CallableChoiceIterator
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games.kinds.registry import kind_choices

#: A kind's code: at most this many characters (the columns' width).
CODE_LENGTH = 20


def kind_column(**kwargs: Any) -> models.CharField[str, str]:
    """A model's ``kind``: validated against the registry, its choices a function (so the
    migration names ``kind_choices``, not today's kinds)."""
    return models.CharField(_("game"), max_length=CODE_LENGTH, choices=kind_choices, **kwargs)


class KindChoiceField(serializers.ChoiceField):
    """A request's ``kind``: one of the kinds registered now."""

    def __init__(self, **kwargs: Any) -> None:
        # DRF's stubs ask for a sequence; any iterable will do, and this one is read afresh.
        super().__init__(choices=CallableChoiceIterator(kind_choices), **kwargs)  # type: ignore[arg-type]


class KindFilter(django_filters.ChoiceFilter):
    """``?kind=``: one of the kinds registered now."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=CallableChoiceIterator(kind_choices), **kwargs)
