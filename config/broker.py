"""Celery's connections to the broker: kombu's own, with one guard on its Redis transport.

Why the guard: with Celery 5.7.0 and kombu 5.7.0 (the newest of both), a worker that loses Redis
while it holds unacknowledged messages (a computer's move waiting out its countdown, a task
running) may exit with ``Unrecoverable error: AttributeError("'NoneType' object has no attribute
'hostname'")``, and nothing brings it back. The path, every step in kombu or Celery:

1. The consumer sees the connection error and calls ``connection.collect()``, then (new in Celery
   5.7) ``connection.close()``.
2. ``collect()`` closes the default channel: its pending BRPOP reply cannot be read, and the
   connection error is swallowed before the channel is marked closed. The transport then closes
   its channels one by one and stops at the first that raises, so the default channel may stay
   open; last, ``collect()`` drops the transport's client (``transport.client = None``) but keeps
   the channel.
3. ``close()`` closes that channel again. Past the BRPOP now, it drops its pool and, to put back
   its unacknowledged messages, builds a new one from ``transport.client``: None. The
   AttributeError is not a connection error, so neither kombu nor Celery ignores it: the worker
   exits. Which socket fails first decides step 2, hence "2 of 4 tries".

The guard: a channel whose transport has been released raises the transport's own connection
error when it needs a new connection. Every caller already takes that for "the broker is away":
the close goes on, and the worker reconnects. Its unacknowledged messages stay where Redis kept
them (the unacked hash, put back after the visibility timeout by whichever worker looks), or were
lost with a Redis that restarted empty; either way the beat's sweep moves their games on.
``tests/reliability/test_broker_guard.py`` plays the path against a Redis of its own.

Installed through the application's AMQP class (``Celery(amqp=...)``): every connection Celery
opens is this module's ``Connection``, and the broker's URL, and so its logs, stay as they were.
"""

from __future__ import annotations

from typing import Any, cast

import kombu
import redis
from celery.app import amqp
from kombu.transport import redis as kombu_redis
from kombu.transport.base import Transport as BaseTransport


class GuardedChannel(kombu_redis.Channel):
    """kombu's Redis channel that refuses to connect once its transport is released."""

    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        transport = self.connection
        if transport is None or transport.client is None:
            raise redis.exceptions.ConnectionError(
                "the broker connection of this channel was released"
            )
        parent: Any = super()
        return cast(dict[str, Any], parent._connparams(asynchronous=asynchronous))


class GuardedTransport(kombu_redis.Transport):
    Channel = GuardedChannel


class Connection(kombu.Connection):
    """kombu's connection, with the guarded transport wherever it would take Redis's."""

    def get_transport_cls(self) -> type[BaseTransport]:
        found = super().get_transport_cls()
        return GuardedTransport if found is kombu_redis.Transport else found


class AMQP(amqp.AMQP):
    Connection = Connection
    BrokerConnection = Connection
