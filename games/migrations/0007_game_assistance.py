"""Games say whether hints and previews are allowed: existing rated games and tournament games
get none, as new ones (games.services.game_create)."""

from typing import Any

from django.db import migrations, models
from django.db.models import Q


def assistance_off_where_it_never_belonged(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    Game.objects.filter(Q(rated=True) | Q(tournament_game__isnull=False)).update(
        assistance=False
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_seat_occupant_and_level"),
        ("tournaments", "0002_entrant_level"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="assistance",
            field=models.BooleanField(default=True, verbose_name="hints and previews"),
        ),
        migrations.RunPython(assistance_off_where_it_never_belonged, migrations.RunPython.noop),
    ]
