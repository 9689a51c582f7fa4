"""Every per-address count keys on one bucket (config.web.client_address.address_bucket): an IPv4
address is its own, an IPv6 client counts by its /64 (``IPV6_BUCKET_PREFIX``), an IPv4-mapped
IPv6 address as the IPv4 address it maps. The request throttle and the sign-in guard here; the
stream tier's caps and opens in tests/streams/test_stream_limits.py.

Run with REDIS_URL (CI) the counters are in Redis; without it, in the in-process cache.
"""

from __future__ import annotations

import pytest
from pytest_django import Settings
from rest_framework.test import APIClient

from config.web.client_address import address_bucket
from tests import factories
from tests.api.test_login_guard import sign_in
from tests.doubles import throttle_rates

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"


@pytest.mark.parametrize(
    ("address", "bucket"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("::1", "::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),  # a dual-stack socket's IPv4 peer
        ("::ffff:cb00:7107", "203.0.113.7"),  # the same, written in hex
        ("", ""),  # no address: as it is
        ("not-an-address", "not-an-address"),
    ],
)
def test_the_bucket_of_an_address(address: str, bucket: str) -> None:
    assert address_bucket(address) == bucket


def test_the_ipv6_prefix_is_a_setting(settings: Settings) -> None:
    settings.IPV6_BUCKET_PREFIX = 48
    assert address_bucket("2001:db8:1:2::9") == "2001:db8:1::/48"
    settings.IPV6_BUCKET_PREFIX = 128
    assert address_bucket("2001:db8:1:2::9") == "2001:db8:1:2::9/128"
    assert address_bucket("203.0.113.7") == "203.0.113.7"  # IPv4 is never grouped


def test_anonymous_requests_are_throttled_per_ipv6_network(anon: APIClient) -> None:
    with throttle_rates(anon="3/min"):
        # A new address of the same /64 for every request: one counter still.
        statuses = [
            anon.get(GAMES, REMOTE_ADDR=f"2001:db8:7:8::{i:x}").status_code for i in range(1, 5)
        ]
        other = anon.get(GAMES, REMOTE_ADDR="2001:db8:7:9::1").status_code
    assert statuses == [200, 200, 200, 429]
    assert other == 200


def test_an_ipv4_mapped_address_shares_its_ipv4_counter(anon: APIClient) -> None:
    with throttle_rates(anon="2/min"):
        statuses = [
            anon.get(GAMES, REMOTE_ADDR=address).status_code
            for address in ("198.51.100.4", "::ffff:198.51.100.4", "198.51.100.4")
        ]
    assert statuses == [200, 200, 429]


def test_the_sign_in_guard_counts_an_ipv6_network_once(anon: APIClient) -> None:
    factories.account("ann", password="right-password-1")
    with (
        throttle_rates(auth="1000/min"),  # the view's throttle out of the way: the guard alone
        pytest.MonkeyPatch.context() as patch,
    ):
        patch.setattr("players.login_guard.rate", lambda scope: (3, 60))
        tries = [sign_in(anon, "ann", "wrong", f"2001:db8:a:b::{i:x}") for i in range(1, 5)]
        elsewhere = sign_in(anon, "ann", "right-password-1", "2001:db8:a:c::1")
    assert tries == [401, 401, 401, 429]
    assert elsewhere == 201


def test_an_owner_known_at_one_ipv6_address_is_known_across_its_network(
    anon: APIClient, settings: Settings
) -> None:
    settings.LOGIN_FAILURES_PER_ACCOUNT = 3
    factories.account("ann", password="right-password-1")
    assert sign_in(anon, "ann", "right-password-1", "2001:db8:c:d::10") == 201
    assert [sign_in(anon, "ann", "guess", f"198.51.100.{i}") for i in range(3)] == [401] * 3
    assert sign_in(anon, "ann", "right-password-1", "198.51.100.50") == 429  # locked
    # The owner's device took a new privacy address in its /64: still the owner's network.
    assert sign_in(anon, "ann", "right-password-1", "2001:db8:c:d:9f3a::77") == 201
