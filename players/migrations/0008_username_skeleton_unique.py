"""The username's skeleton unique, so that two lookalike registrations at once cannot both pass.

Lookalikes registered before are neither renamed nor merged (that would sign someone into
another's account, or out of their own): in each group the oldest account keeps the skeleton to
itself, the others are marked ``skeleton_shared`` and stay outside the unique index.
"""

from django.db import migrations, models
from django.db.models import Count


def mark_shared(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    shared = (
        Player.objects.values("username_skeleton")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .values_list("username_skeleton", flat=True)
    )
    for skeleton in list(shared):
        first = Player.objects.filter(username_skeleton=skeleton).order_by("pk").first()
        Player.objects.filter(username_skeleton=skeleton).exclude(pk=first.pk).update(
            skeleton_shared=True
        )


class Migration(migrations.Migration):

    dependencies = [
        ('auth', '0012_alter_user_first_name_max_length'),
        ('players', '0007_rating_change_void'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='skeleton_shared',
            field=models.BooleanField(db_default=False, default=False, editable=False),
        ),
        migrations.RunPython(mark_shared, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(condition=models.Q(('skeleton_shared', False)), fields=('username_skeleton',), name='player_username_skeleton_unique', violation_error_message='This username looks too much like an existing one.'),
        ),
    ]
