"""Reading a played game: its analysis (``reads``), drawn as a picture (``chart``), and the folds
of its log kept per game version (``fold_cache``: the analysis and the replay)."""
