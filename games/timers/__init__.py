"""The moves the server makes by itself, and when: a game's deadline (``deadlines``), where the
deadlines are kept (``wheel``), the timers process that fires them (``runner``), and the automatic
moves themselves, computer seats' and timers' (``automation``)."""
