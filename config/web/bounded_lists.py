"""Every list the API reads is bounded in length, and the bound is checked before any item is.

DRF's ``ListField(max_length=...)`` checks its length only after it has validated every item (its
``MaxLengthValidator`` runs on the validated list), so a body of 100,000 items is validated item
by item before it is refused. ``BoundedListField`` refuses it first, with DRF's own code
(``max_length``, in ``errors``, on the field). A nested serializer's list (``many=True``) takes
``max_length`` as it is: DRF's ``ListSerializer`` already checks it first. The rules' own lists
(a move's ``hold`` and ``keep``) are bounded where the rules read them (``too_many_dice``).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class BoundedListField(serializers.ListField):
    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        super().__init__(max_length=max_length, **kwargs)
        self.bound = max_length

    def to_internal_value(self, data: Any) -> list[Any]:
        # Only a real list has a length worth reading here: anything else is DRF's to refuse.
        if isinstance(data, list | tuple) and len(data) > self.bound:
            self.fail("max_length", max_length=self.bound)
        return list(super().to_internal_value(data))
