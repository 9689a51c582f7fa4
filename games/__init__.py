"""Games: the event store, the one move path, the REST API and the admin for every game kind."""
