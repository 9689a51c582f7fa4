"""Client views of a game's state, localised: one module per kind, each providing what
``games.kinds.Presenter`` lists."""
