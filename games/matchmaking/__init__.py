"""Matchmaking: seeks that pair two players into a started game, and rematches."""
