"""What the game core tells the packages above it from inside its transactions, so that it need
not import them. ``game_finished``: sent once by the move path in the move's transaction, as a game
turns finished with a result (places recorded; an aborted game sends nothing), so a receiver's
writes (``games.accounts``' ratings) commit with it and one that raises rolls the move back.
Arguments: ``sender`` the ``Game`` class, ``game`` the game (its row locked)."""

from django.dispatch import Signal

game_finished = Signal()
