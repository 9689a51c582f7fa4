"""A staff member in the admin, as a browser is: signed in through the login page, CSRF checks
on, every post carrying the token of the form it answers (the change list's, then the action's
own reason page)."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client

from players.models import Player

_TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


class StaffBrowser:
    def __init__(self, player: Player, password: str) -> None:
        self.player = player
        self.client = Client(enforce_csrf_checks=True)
        login = self.client.get("/admin/login/")
        answer = self.client.post(
            "/admin/login/?next=/admin/",
            {
                "username": player.username,
                "password": password,
                "next": "/admin/",
                "csrfmiddlewaretoken": self.token_of(login),
            },
        )
        assert answer.status_code == 302, answer.content[:500]

    @staticmethod
    def token_of(page: Any) -> str:
        found = _TOKEN.search(page.content)
        assert found, page.content[:500]
        return found.group(1).decode()

    def ask(self, changelist: str, action: str, pks: list[Any]) -> Any:
        """The action chosen on the change list: its reason page (200), nothing done yet."""
        page = self.client.get(changelist)
        assert page.status_code == 200
        data = {"action": action, "_selected_action": [str(pk) for pk in pks], "index": 0}
        asked = self.client.post(changelist, {**data, "csrfmiddlewaretoken": self.token_of(page)})
        assert asked.status_code == 200, asked.content[:500]
        assert b'name="reason"' in asked.content
        return asked

    def act(self, changelist: str, action: str, pks: list[Any], **fields: Any) -> Any:
        """The action with its reason page filled in and sent (``fields``: reason and the rest);
        the answer: a redirect to the list when it acted, the page again when the form is not
        valid."""
        asked = self.ask(changelist, action, pks)
        data = {
            "action": action,
            "_selected_action": [str(pk) for pk in pks],
            "apply": "1",
            "csrfmiddlewaretoken": self.token_of(asked),
            **fields,
        }
        return self.client.post(changelist, data)

    def messages(self, answer: Any) -> list[str]:
        """The messages shown after a redirect to the list."""
        page = self.client.get(answer["Location"])
        return [str(message) for message in page.context["messages"]]
