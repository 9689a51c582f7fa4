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


#: The statements, in order (each idempotent).
GRANTS = (
    "GRANT USAGE ON SCHEMA {schema} TO {role}",
    "REVOKE CREATE ON SCHEMA {schema} FROM {role}",
    "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}",
    "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
    "REVOKE ALL ON {log} FROM {role}",
    "GRANT SELECT, INSERT ON {log} TO {role}",
    "REVOKE ALL ON {record} FROM {role}",
    "GRANT SELECT ON {record} TO {role}",
    "ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES "
    "TO {role}",
    "ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} GRANT USAGE, SELECT ON SEQUENCES TO {role}",
)


def grants(role: str, schema: str) -> list[sql.Composed]:
    names = {
        "role": sql.Identifier(role),
        "schema": sql.Identifier(schema),
        "log": sql.Identifier(schema, GameEvent._meta.db_table),
        "record": sql.Identifier(schema, READ_ONLY),
    }
    return [sql.SQL(statement).format(**names) for statement in GRANTS]


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
