"""The account's export under concurrency, on the real database (docs/writes.md): two requests at
once make one export (the account's row), and two deliveries of one step write one part (the
export's row); a deletion that waits on a step deletes what the step wrote."""

from __future__ import annotations

import time
from collections.abc import Iterator
from unittest import mock

import pytest
from django.db import connection, transaction

from games.accounts import export_files
from games.accounts.deletion import account_delete
from players.models import AccountExport, AccountExportPart, Player
from tests.factories import account
from tests.races import Racer, sessions_waiting_on_a_lock, until_one_waits_on_a_lock

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_broker() -> Iterator[None]:
    with mock.patch.object(export_files, "queue_step"):
        yield


def until_both_wait() -> None:
    """Both racers blocked on a lock. Within this test's open transaction PostgreSQL keeps the
    first snapshot of its statistics views: it is dropped before each look."""
    for _poll in range(400):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
        if sessions_waiting_on_a_lock() >= 2:
            return
        time.sleep(0.05)
    pytest.fail("never waited: the second racer, on the same row")


def test_two_requests_at_once_make_one_export() -> None:
    ann = account("ann")
    first = Racer(lambda: export_files.account_export_request(player=ann).pk)
    second = Racer(lambda: export_files.account_export_request(player=ann).pk)
    with transaction.atomic():
        Player.objects.select_for_update(no_key=True).get(pk=ann.pk)  # held, as a ban would
        first.start()
        until_one_waits_on_a_lock("the first request, on the account's row")
        second.start()
        until_both_wait()
    assert first.finish() == second.finish()
    assert AccountExport.objects.filter(player=ann).count() == 1


def test_a_step_delivered_twice_at_once_writes_one_part() -> None:
    ann = account("ann")
    made = export_files.account_export_request(player=ann)
    one = Racer(lambda: export_files.account_export_step(export_id=made.pk, part=0))
    two = Racer(lambda: export_files.account_export_step(export_id=made.pk, part=0))
    with transaction.atomic():
        AccountExport.objects.select_for_update().get(pk=made.pk)
        one.start()
        until_one_waits_on_a_lock("a step, on the export's row")
        two.start()
        until_both_wait()
    assert sorted([one.finish(), two.finish()]) == [False, True]
    assert AccountExportPart.objects.filter(export=made).count() == 1


def test_a_deletion_waiting_on_a_step_deletes_what_it_wrote() -> None:
    ann = account("ann")
    made = export_files.account_export_request(player=ann)
    deleting = Racer(lambda: account_delete(player_id=ann.pk))
    with transaction.atomic():
        assert export_files.account_export_step(export_id=made.pk, part=0)  # holds the export
        deleting.start()
        until_one_waits_on_a_lock("the deletion, on the export's row")
    deleting.finish()
    assert not AccountExport.objects.filter(pk=made.pk).exists()
    assert not AccountExportPart.objects.filter(export_id=made.pk).exists()
