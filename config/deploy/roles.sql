-- The two database roles of a deployment (docs/operations.md, "Database roles"), made once by a superuser:
--   psql -v ON_ERROR_STOP=1 -v owner_password=... -v app_password=... -f config/deploy/roles.sql
-- (psql quotes the passwords itself: :'name'). docker compose's PostgreSQL runs it on its first
-- start (config/deploy/postgres/init-roles.sh).
-- dice_owner owns the tables, the event log's triggers and their function: `manage.py migrate`
-- and `manage.py grant_runtime_role dice_app` run as it (MIGRATE_DATABASE_URL).
-- dice_app is what the web tier, the stream tier, the workers, beat and the timers connect as
-- (DATABASE_URL): it owns nothing, so it cannot alter a table, nor drop or disable a trigger;
-- grant_runtime_role gives it SELECT, INSERT, UPDATE, DELETE on the tables, only SELECT and
-- INSERT on the event log (no UPDATE, DELETE, TRUNCATE), only SELECT on django_migrations.
CREATE ROLE dice_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE dice_app LOGIN PASSWORD :'app_password'
    NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
CREATE DATABASE dice OWNER dice_owner;
REVOKE ALL ON DATABASE dice FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE dice TO dice_app;
ALTER DATABASE dice SET timezone TO 'UTC';
\connect dice
-- Before PostgreSQL 15 every role may create objects in the public schema: not the runtime one.
ALTER SCHEMA public OWNER TO dice_owner;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
