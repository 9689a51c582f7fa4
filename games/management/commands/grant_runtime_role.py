"""Give the application's runtime role what it needs and no more (docs/operations.md, "Database
roles"). Run as the migration role (the tables' owner) after every ``migrate``; idempotent. The
runtime role gets every table's rows, but only SELECT and INSERT on the event log and SELECT on
the migrations' record, and owns nothing: it cannot alter an event nor the trigger guarding them.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from psycopg import sql

from games.models import GameEvent

READ_ONLY = "django_migrations"


def grants(role: str, schema: str) -> list[sql.Composed]:
    """The statements, in order (each idempotent)."""
    who = sql.Identifier(role)
    where = sql.Identifier(schema)
    log = sql.Identifier(schema, GameEvent._meta.db_table)
    record = sql.Identifier(schema, READ_ONLY)
    return [
        sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(where, who),
        sql.SQL("REVOKE CREATE ON SCHEMA {} FROM {}").format(where, who),
        sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {} TO {}").format(
            where, who
        ),
        sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {} TO {}").format(where, who),
        sql.SQL("REVOKE ALL ON {} FROM {}").format(log, who),
        sql.SQL("GRANT SELECT, INSERT ON {} TO {}").format(log, who),
        sql.SQL("REVOKE ALL ON {} FROM {}").format(record, who),
        sql.SQL("GRANT SELECT ON {} TO {}").format(record, who),
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES IN SCHEMA {} GRANT SELECT, INSERT, UPDATE, DELETE "
            "ON TABLES TO {}"
        ).format(where, who),
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES IN SCHEMA {} GRANT USAGE, SELECT ON SEQUENCES TO {}"
        ).format(where, who),
    ]


class Command(BaseCommand):
    help = (
        "Grant the runtime role (DATABASE_URL's) the rights it needs: every table but the event "
        "log's UPDATE, DELETE and TRUNCATE. Run as the migration role after `migrate`."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("role", help="the runtime role's name")
        parser.add_argument("--schema", default="public")
        parser.add_argument(
            "--print", action="store_true", help="print the statements instead of running them"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("Database roles are PostgreSQL's: SQLite has one user.")
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            (current,) = cursor.fetchone()
            if current == options["role"]:
                raise CommandError(
                    f"Connected as {current}, the runtime role itself: run this as the tables' "
                    "owner (MIGRATE_DATABASE_URL)."
                )
            statements = grants(options["role"], options["schema"])
            for statement in statements:
                text = statement.as_string(cursor.connection)
                if options["print"]:
                    self.stdout.write(text + ";")
                else:
                    cursor.execute(text)
        if not options["print"]:
            self.stdout.write(f"Granted {options['role']} its rights.")
