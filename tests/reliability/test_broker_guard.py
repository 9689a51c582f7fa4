"""The worker's broker connection when Redis dies (config/broker.py): the path that made Celery
5.7 workers exit, played against a Redis server of the test's own.

A connection with two consuming channels, the default one holding a message it has not
acknowledged (a task in hand) and both waiting on a BRPOP, as the worker's event loop leaves them;
Redis is killed; then what Celery 5.7's consumer does on a connection error
(``on_connection_error_after_connected``): ``collect()``, any exception ignored, then ``close()``
with the connection's errors ignored. kombu's own connection raises the worker's fatal
AttributeError there; the application's connection goes through, and works again once Redis is
back, empty."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kombu import Connection, Producer, Queue
from kombu.common import ignore_errors

from config import broker
from config.celery_app import app
from tests.reliability.private_redis import RedisServer, available, private_redis

pytestmark = pytest.mark.skipif(not available(), reason="needs redis-server")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    with private_redis(tmp_path) as started:
        yield started


def consuming(connection: Connection) -> None:
    """The default channel with a message delivered and not acknowledged, and a BRPOP sent on it
    and on a second channel, their replies not read: where Redis's death finds a busy worker."""
    default: Any = connection.default_channel  # kombu's Redis channel; the stubs know StdChannel
    Queue("held", routing_key="held")(default).declare()
    Producer(default).publish({"task": "in hand"}, routing_key="held")
    default.basic_consume("held", False, lambda message: None, "held")
    cycle = default.connection.cycle
    cycle.on_poll_start()
    default._brpop_read()  # delivered: the message is in hand, unacknowledged
    other: Any = connection.channel()
    Queue("other", routing_key="other")(other).declare()
    other.basic_consume("other", False, lambda message: None, "other")
    cycle.on_poll_start()
    assert len(default.qos._delivered) == 1
    assert default._in_poll and other._in_poll


def lose_the_broker(connection: Connection, server: RedisServer) -> None:
    """Redis dies; the consumer's clean-up, as Celery 5.7 writes it."""
    server.kill()
    with contextlib.suppress(Exception):
        connection.collect(socket_timeout=1)
    ignore_errors(connection, connection.close)


def test_kombus_own_connection_fails_where_the_worker_exited(server: RedisServer) -> None:
    """The path is the worker's: without the guard it ends in the AttributeError. (Should a kombu
    release fix it, this fails: config/broker.py's guard may then go.)"""
    connection = Connection(f"{server.url}/0")
    consuming(connection)
    with pytest.raises(AttributeError, match="hostname"):
        lose_the_broker(connection, server)


def test_the_applications_connection_survives_and_reconnects(server: RedisServer) -> None:
    connection = broker.Connection(f"{server.url}/0")
    assert isinstance(connection.transport, broker.GuardedTransport)
    consuming(connection)
    held: Any = connection.default_channel

    lose_the_broker(connection, server)  # raises nothing

    assert held.closed
    server.start()  # back, empty
    with broker.Connection(f"{server.url}/0") as again:
        queue = Queue("after", routing_key="after")
        Producer(again).publish({"n": 1}, routing_key="after", declare=[queue])
        message = queue(again.default_channel).get(no_ack=True)
        assert message is not None and message.payload == {"n": 1}


def test_celery_connects_through_the_guarded_transport() -> None:
    """Every connection of the application is config.broker's, on the broker's own URL."""
    connection = app.connection_for_read("redis://127.0.0.1:6390/0")
    assert isinstance(connection, broker.Connection)
    assert connection.get_transport_cls() is broker.GuardedTransport
    assert connection.as_uri().startswith("redis://")
    memory = app.connection_for_write("memory://")
    assert memory.get_transport_cls() is not broker.GuardedTransport
