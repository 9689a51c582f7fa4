"""Players: accounts with their public profile, API tokens."""
