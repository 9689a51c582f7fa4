from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0009_account_sessions'),
    ]

    operations = [
        migrations.CreateModel(
            name='UsernameHold',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name_digest', models.CharField(db_index=True, editable=False, max_length=64)),
                ('skeleton_digest', models.CharField(db_index=True, editable=False, max_length=64)),
                ('held_until', models.DateTimeField(db_index=True, editable=False)),
            ],
        ),
    ]
