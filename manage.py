#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

#: The commands that change the schema or the rights on it: they run as the migration role, the
#: tables' owner (MIGRATE_DATABASE_URL) when it is set; everything else as the runtime role
#: (DATABASE_URL). docs/operations.md, "Database roles".
AS_OWNER = {"migrate", "grant_runtime_role"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    owner = os.environ.get("MIGRATE_DATABASE_URL")
    if owner and len(sys.argv) > 1 and sys.argv[1] in AS_OWNER:
        os.environ["DATABASE_URL"] = owner
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
