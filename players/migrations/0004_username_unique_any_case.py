"""One account per username in any case: a unique index on LOWER(username) (after 0003)."""

import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("players", "0003_username_identity")]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("username"),
                name="player_username_unique_any_case",
                violation_error_message="A user with that username already exists.",
            ),
        ),
    ]
