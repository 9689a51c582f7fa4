"""The stream tier: Server-Sent Events and long-poll, served apart from the request/response API.

An ASGI application (``app``) run by uvicorn, in the shape of lichess's lila-ws: each process holds
one subscription to the live bus (``bus``: Redis pub/sub, or the ``LiveNote`` table) and fans every
note out to its own open streams (``hub``). A game's new events are read once per note per process
and rendered once per language, whatever the number of streams on that game. An idle stream costs
a coroutine and its socket, never a thread or a database connection (``reads``).
"""
