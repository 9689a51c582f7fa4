"""On PostgreSQL, the event log also refuses TRUNCATE (a statement-level trigger: TRUNCATE fires
no row trigger), whether of the log itself or cascading from a table it references. SQLite has
no TRUNCATE. Clearing the log on purpose (a test database) takes a superuser's
``SET session_replication_role = replica``, which the runtime role cannot set."""

from django.db import migrations

FORBID = """
CREATE TRIGGER games_event_no_truncate
    BEFORE TRUNCATE ON games_gameevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_append_only();
"""
ALLOW = "DROP TRIGGER IF EXISTS games_event_no_truncate ON games_gameevent;"


def forbid(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORBID)


def allow(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(ALLOW)


class Migration(migrations.Migration):
    dependencies = [("games", "0008_game_aborted_and_clocks")]

    operations = [migrations.RunPython(forbid, allow)]
