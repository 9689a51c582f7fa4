"""The event log: appending a game's events (``store``) and checking that its snapshot is the fold
of its log (``check``)."""
