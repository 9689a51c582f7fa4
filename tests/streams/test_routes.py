"""Which requests the stream tier serves (the proxy in front routes by the same rule)."""

from games.streams.routes import is_stream_request


def test_the_routing_rule() -> None:
    game = "/api/v1/games/0b9d7c1e-7a40-4c3e-9a57-3d2f0f6e1a11/"
    sse = {"accept": "text/event-stream"}
    assert is_stream_request("/api/v1/stream/", b"", {})
    assert is_stream_request(game + "stream/", b"", {})
    assert is_stream_request(game + "events/", b"after=3", sse)
    assert is_stream_request(game + "events/", b"after=3&wait=30", {})
    assert not is_stream_request(game + "events/", b"after=3", {})
    assert not is_stream_request(game + "events/", b"wait=0", {})
    assert not is_stream_request(game + "moves/", b"", sse)
    assert not is_stream_request("/api/v1/games/", b"", sse)
