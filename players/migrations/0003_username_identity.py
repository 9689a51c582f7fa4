"""Usernames NFKC-normalised, with the key of their skeleton (players.identity), before the unique
index on LOWER(username) (0004) is built.

Accounts whose names become one name (in another case or width) are not merged or renamed here:
that would sign someone into another's account, or out of their own. The migration stops and
lists them; rename all but one in the admin (or the shell), then migrate again.
"""

from collections import defaultdict

from django.db import migrations, models

import players.models
from players.identity import skeleton_key, username_normalise


def collisions(rows):
    """The groups of (id, username) that are one name once normalised and in any case."""
    groups = defaultdict(list)
    for pk, username in rows:
        groups[username_normalise(username).lower()].append((pk, username))
    return [group for group in groups.values() if len(group) > 1]


def normalise(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    rows = list(Player.objects.order_by("pk").values_list("pk", "username"))
    clashing = collisions(rows)
    if clashing:
        lines = "\n".join(
            "  " + ", ".join(f"#{pk} {name!r}" for pk, name in group) for group in clashing
        )
        raise RuntimeError(
            "These accounts' usernames are one name in another case or width; rename all but "
            f"one of each group, then migrate again:\n{lines}"
        )
    for pk, username in rows:
        name = username_normalise(username)
        Player.objects.filter(pk=pk).update(username=name, username_skeleton=skeleton_key(name))


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("players", "0002_ratings"),
    ]

    operations = [
        migrations.AlterModelManagers(
            name="player",
            managers=[("objects", players.models.PlayerManager())],
        ),
        migrations.AddField(
            model_name="player",
            name="username_skeleton",
            field=models.CharField(db_index=True, default="", editable=False, max_length=64),
        ),
        migrations.RunPython(normalise, migrations.RunPython.noop),
    ]
