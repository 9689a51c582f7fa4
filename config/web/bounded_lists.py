"""A list bounded before any item is validated: DRF's ``ListField(max_length=...)`` checks the
length only after every item (DRF's ``ListSerializer`` already checks it first).
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
