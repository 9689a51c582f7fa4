"""A game's fair dice: its seeds, committed, given and revealed (``seeds``), and the roller a
move throws with (``dice``); the algorithm itself is the rules' (``games.rules.fairness``)."""
