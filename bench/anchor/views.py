"""The anchor's two views: a plain Django view, and a move written by hand in raw SQL.

The move is the project's move transaction reduced to its database work, on the project's own
tables: lock the game row, append one event, bump the game's version and snapshot, commit. No
rules (the event's data is a fixed small document), no authentication, no serializer: what is left
is Django's request handling, DRF's APIView and the four statements.
"""

from __future__ import annotations

import json
from uuid import UUID

from django.db import connection, transaction
from django.http import HttpRequest, JsonResponse
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

EVENT_DATA = json.dumps({"seat": 0, "roll_number": 1, "held": [], "dice": [1, 2, 3, 4, 5]})


def plain(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


class Move(APIView):
    def post(self, request: Request, game_id: UUID) -> Response:
        # The body is parsed as the project parses its own (DRF, JSON), and names the event.
        event_type = "box_scored" if request.data.get("type") == "score" else "dice_rolled"
        with transaction.atomic(), connection.cursor() as cursor:
            # created_by_id comes along as the event's actor: the project's events name theirs.
            cursor.execute(
                "SELECT version, state, created_by_id FROM games_game WHERE id = %s FOR UPDATE",
                [game_id],
            )
            row = cursor.fetchone()
            if row is None:
                return Response({"code": "game_not_found"}, status=404)
            version = row[0] + 1
            # Django's PostgreSQL backend hands jsonb back as text (its JSONField decodes it).
            state = json.loads(row[1]) if isinstance(row[1], str) else dict(row[1] or {})
            state["moves"] = version
            cursor.execute(
                "INSERT INTO games_gameevent (game_id, seq, type, data, actor_id, automatic,"
                " created_at) VALUES (%s, %s, %s, %s, %s, false, now())",
                [game_id, version, event_type, EVENT_DATA, row[2]],
            )
            cursor.execute(
                "UPDATE games_game SET version = %s, state = %s, last_move_at = now()"
                " WHERE id = %s",
                [version, json.dumps(state), game_id],
            )
        return Response({"version": version})
