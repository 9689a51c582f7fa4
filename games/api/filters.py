from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from games.kinds.fields import KindFilter
from games.models import Game, GameStatus


class GameFilter(django_filters.FilterSet):
    kind = KindFilter()
    status = django_filters.ChoiceFilter(choices=GameStatus.choices)
    mine = django_filters.BooleanFilter(
        method="filter_mine", label=_("Only games where I hold a seat or that I created")
    )
    player = django_filters.CharFilter(
        field_name="seats__player__username", label=_("Games with this player seated")
    )

    class Meta:
        model = Game
        fields = ["kind", "status", "mine", "player"]

    def filter_mine(self, queryset: QuerySet[Game], name: str, value: bool) -> QuerySet[Game]:
        user = getattr(self.request, "user", None)
        if value is None:
            return queryset
        if user is None or not user.is_authenticated:
            return queryset.none() if value else queryset
        mine = Q(created_by=user) | Q(seats__player=user)
        return queryset.filter(mine).distinct() if value else queryset.exclude(mine)
