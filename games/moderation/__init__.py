"""The staff's powers over accounts and games: bans and the cut-off they share with a deletion
(``actions``), the admin's actions on a game (``admin``, through ``games.staff``) and the watch on
suspicious rated play (``rating_watch``)."""
