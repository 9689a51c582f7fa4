"""On PostgreSQL, the database itself refuses to update or delete a game event: the log is
append-only whatever code (or admin, or shell) touches it. SQLite relies on the model's guard."""

from django.db import migrations

FORBID = """
CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_gameevent is append-only (% refused)', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_event_append_only
    BEFORE UPDATE OR DELETE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
"""
ALLOW = """
DROP TRIGGER IF EXISTS games_event_append_only ON games_gameevent;
DROP FUNCTION IF EXISTS games_event_append_only();
"""


def forbid(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:  # no params: '%' in the body is literal
            cursor.execute(FORBID)


def allow(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(ALLOW)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(forbid, allow)]
