"""Dice by position: the computer players choose faces, the rules engines take positions. A leaf,
so the players and the analysis both use it without importing each other."""

from games.rules.base import faces_to_indices

__all__ = ["faces_to_indices"]
