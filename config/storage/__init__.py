"""Database and Redis helpers: the process's Redis client, and the hot paths' ORM shortcuts."""
