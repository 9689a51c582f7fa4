"""Celery's connections to the broker: kombu's own, with one guard on its Redis transport.

With Celery and kombu 5.7.0, a worker that loses Redis while it holds unacknowledged messages may
exit with ``AttributeError("'NoneType' object has no attribute 'hostname'")``: ``collect()`` drops
the transport's client (``transport.client = None``) but may leave the default channel open, and
``close()`` then rebuilds that channel's pool from the missing client, which neither kombu nor
Celery takes for a connection error. The guard raises the transport's own connection error
instead, so the close goes on and the worker reconnects (its unacknowledged messages come back
after the visibility timeout, or the beat's sweep moves their games on).
``tests/reliability/test_broker_guard.py`` plays the path. Installed through ``Celery(amqp=...)``.
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
