"""Browser sessions indexed by the account signed in (``AccountSession``): ending an account's
sessions is one indexed delete, not a decoding of every session. The row follows its session to a
new key (``cycle_key``).
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.signals import user_logged_in
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.dispatch import receiver

from players.models import AccountSession, Player


class SessionStore(db.SessionStore):
    def cycle_key(self) -> None:
        old = self.session_key
        owner_id = None
        if old:
            rows = AccountSession.objects.filter(session_id=old)
            owner_id = rows.values_list("player_id", flat=True).first()
        super().cycle_key()  # deletes the old session, and with it its row
        if owner_id is not None and self.session_key:
            _index(self.session_key, owner_id)

    async def acycle_key(self) -> None:
        await sync_to_async(self.cycle_key)()


def _index(session_key: str, player_id: int) -> None:
    AccountSession.objects.update_or_create(
        session_id=session_key, defaults={"player_id": player_id}
    )


@receiver(user_logged_in, dispatch_uid="players.sessions.index_sign_in")
def index_sign_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """A session signed in: its row (``login`` has just given the session its new key)."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None) if session is not None else None
    if key and isinstance(user, Player):
        _index(key, user.pk)


def sessions_end(*, player: Player) -> int:
    keys = AccountSession.objects.filter(player=player).values("session_id")
    _deleted, by_model = Session.objects.filter(session_key__in=keys).delete()
    return int(by_model.get(Session._meta.label, 0))
