"""Accounts in the games: what reads both an account and its games. Ratings (a finished game
rated, a game's rating voided), statistics, profiles and leaderboards, the account's export and
its deletion, and the admin's actions on accounts and ratings.

It stands above both ``players`` (the accounts) and the game core: it imports them, neither
imports it. The core tells it that a game finished through ``games.signals.game_finished``."""
