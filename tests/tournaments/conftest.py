"""The HTTP fixtures of tests/api, for the tournament API tests."""

from tests.api.conftest import (  # noqa: F401
    _fast_password_hashing,
    _fresh_throttles,
    anon,
    make_client,
)
