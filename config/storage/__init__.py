"""Database and Redis helpers: the process's one Redis client and its batches, and the hot paths'
shortcuts through Django's internals (each with its plain ORM path and a canary test)."""
