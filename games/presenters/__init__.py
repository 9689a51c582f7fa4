"""Client views of a game's state: everything a client needs to draw the table, localised.

One module per game kind, each providing what
``games.kinds.Presenter`` lists: it reads a rules state and adds what people read (labels,
messages) through gettext. ``games.kinds`` tells which presenter a game's kind uses.
"""
