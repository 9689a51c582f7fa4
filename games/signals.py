"""What the game core tells the packages above it from inside its own transactions, so that it
need not import them (``games.accounts`` rates a finished game here).

``game_finished`` is sent by the move path (``games.services``) in the move's transaction, once,
as a game turns finished with a result (an aborted game sends nothing), its seats' places
recorded: a receiver's writes commit with the game's end, and one that raises rolls the move
back. Arguments: ``sender`` the ``Game`` class, ``game`` the game (its row locked)."""

from django.dispatch import Signal

game_finished = Signal()
