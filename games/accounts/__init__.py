"""Accounts in the games: what reads both an account and its games (ratings, statistics, profiles
and leaderboards, the export, the deletion, the admin's actions). It stands above ``players`` and
the game core, which never import it: a finished game reaches it by ``games.signals``."""
