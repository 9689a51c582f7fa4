"""Seams for what follows a committed move (publishing to clients, computer turns, timers).

``game_advanced`` is sent after the transaction that appended events has committed, with
``game_id`` and the new ``version``: receivers schedule work tagged with that version, so work for a
version the game has since left does nothing.
"""

from django.dispatch import Signal

game_advanced = Signal()
