"""The API fixtures of tests/api, for the language tests."""

from tests.api.conftest import (  # noqa: F401 (fixtures, found by name)
    _fast_password_hashing,
    _fresh_throttles,
    anon,
    dice,
    make_client,
)
