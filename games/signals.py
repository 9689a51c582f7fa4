"""Seams for what follows a committed move (publishing to clients, computer turns, timers).

``game_advanced`` is sent after the transaction that appended events has committed, with
``game_id``, the new ``version``, ``computer_to_play``, ``deadline_at``, ``finished`` and
``player_notes`` (what each seated account's stream should hear):
receivers schedule work tagged with that version, so work for a version the game has since left
does nothing.
"""

from django.dispatch import Signal

game_advanced = Signal()

#: Sent inside the transaction that appends a game's last event, with ``game`` (its seats' places
#: and totals recorded): receivers' writes commit or roll back with the move.
game_finished = Signal()
