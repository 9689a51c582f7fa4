# A seat's kind and computer level are called ``occupant`` and ``level`` in code. Their columns
# keep their names (``kind``, ``ai_level``), as does the API: nothing changes in the database.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_live_notes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveConstraint(
                    model_name="seat", name="seat_player_only_on_player_seats"
                ),
                migrations.RenameField(model_name="seat", old_name="kind", new_name="occupant"),
                migrations.RenameField(model_name="seat", old_name="ai_level", new_name="level"),
                migrations.AlterField(
                    model_name="seat",
                    name="occupant",
                    field=models.CharField(
                        choices=[
                            ("player", "Player"),
                            ("hotseat", "Hot-seat player"),
                            ("computer", "Computer"),
                        ],
                        db_column="kind",
                        max_length=10,
                        verbose_name="kind",
                    ),
                ),
                migrations.AlterField(
                    model_name="seat",
                    name="level",
                    field=models.CharField(
                        blank=True, db_column="ai_level", max_length=20, verbose_name="computer level"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="seat",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("occupant", "player"), ("player__isnull", True), _connector="OR"),
                        name="seat_player_only_on_player_seats",
                    ),
                ),
            ],
        ),
    ]
