#!/bin/sh
# docker compose's PostgreSQL runs this once, on its first start (an empty data directory, from
# /docker-entrypoint-initdb.d/), as the image's superuser: the deployment's two roles and its
# database, by config/deploy/roles.sql (docs/operations.md, "Database roles"), with the passwords of the
# environment (DB_OWNER_PASSWORD, DB_APP_PASSWORD). No process of the service connects as the
# superuser afterwards. The image sources a script it cannot execute, so no `set -e` here: a
# failure exits, and the first start fails with it.
psql -v ON_ERROR_STOP=1 --no-psqlrc --username "${POSTGRES_USER:-postgres}" --dbname postgres \
    -v owner_password="${DB_OWNER_PASSWORD:?set DB_OWNER_PASSWORD}" \
    -v app_password="${DB_APP_PASSWORD:?set DB_APP_PASSWORD}" \
    -f "${DICE_ROLES_SQL:-/dice/roles.sql}" || exit 1
