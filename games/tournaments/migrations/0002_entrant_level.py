# A computer entrant's level is called ``level`` in code. Its column keeps its name
# (``computer_level``), as does the API: nothing changes in the database.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveConstraint(model_name="entrant", name="entrant_player_or_computer"),
                migrations.RenameField(
                    model_name="entrant", old_name="computer_level", new_name="level"
                ),
                migrations.AlterField(
                    model_name="entrant",
                    name="level",
                    field=models.CharField(
                        blank=True,
                        db_column="computer_level",
                        max_length=20,
                        verbose_name="computer level",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="entrant",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("level", ""), ("player__isnull", False)),
                            models.Q(("player__isnull", True), models.Q(("level", ""), _negated=True)),
                            _connector="OR",
                        ),
                        name="entrant_player_or_computer",
                    ),
                ),
            ],
        ),
    ]
