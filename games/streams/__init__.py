"""The stream tier: Server-Sent Events and long-poll, served apart from the request/response API.

An ASGI application (``games.streams.app``) run by uvicorn, in the shape of lichess's lila-ws:
each process holds one subscription to the live bus (``games.followups.live``: Redis pub/sub, or the
``LiveNote`` table) and fans every note out to its own open streams. A game's new events are read
once per note per process and rendered once per language, whatever the number of streams on that
game. An idle stream costs a coroutine and its socket, never a thread or a database connection:
reads run on a small thread pool of the process (``reads``).

- ``routes``: which requests belong to this tier (the front proxy routes by the same rule);
- ``reads``: the database reads, and an event's SSE frame;
- ``bus``: the subscription (Redis or the table);
- ``hub``: the per-process fan-out: one feed per watched game, listeners per account;
- ``app``: the ASGI application.
"""
