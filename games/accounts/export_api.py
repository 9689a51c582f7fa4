"""``accounts/me/export/``: the account asks for its export (``POST``), follows it (``GET``) and
downloads it once ready (``download/``). The workers write it (``export_files``)."""

from __future__ import annotations

from typing import Any

from django.http import StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.schema import refuses
from config.vocabulary.refusals import Refusal
from games.accounts import export_files
from games.accounts.export import Export
from games.api.schema_forms import serializer
from players.auth import request_player
from players.models import AccountExport, ExportStatus


class ExportStatusSerializer(serializers.Serializer[dict[str, Any]]):
    status = serializers.ChoiceField(
        choices=ExportStatus.values,
        help_text="pending: being written; ready: download it; failed: ask for a new one",
    )
    requested_at = serializers.DateTimeField()
    ready_at = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(
        help_text="The export is deleted then (EXPORT_KEEP_HOURS after it was ready)"
    )
    games = serializers.IntegerField(help_text="Games written so far")
    size = serializers.IntegerField(help_text="The document's bytes so far, as JSON")
    download = serializers.CharField(
        allow_null=True, help_text="Where to download it once it is ready; null before"
    )


def _status(export: AccountExport) -> dict[str, Any]:
    ready = export.status == ExportStatus.READY
    return ExportStatusSerializer(
        {
            "status": export.status,
            "requested_at": export.requested_at,
            "ready_at": export.ready_at,
            "expires_at": export.expires_at,
            "games": export.games,
            "size": export.size,
            "download": reverse("account-export-download") if ready else None,
        }
    ).data


def _accepts_gzip(request: Request) -> bool:
    """``Accept-Encoding`` names gzip (or ``*``) with a weight above 0."""
    for item in request.headers.get("Accept-Encoding", "").split(","):
        coding, *params = (piece.strip() for piece in item.split(";"))
        if coding.lower() in ("gzip", "*"):
            weights = [p.removeprefix("q=") for p in params if p.startswith("q=")]
            try:
                return not weights or float(weights[0]) > 0
            except ValueError:
                return False
    return False


class ExportView(APIView):
    permission_classes = [IsAuthenticated]

    @property
    def throttle_scope(self) -> str | None:
        # Asking for one sets the workers reading every game of the account; following it, a row.
        return "expensive" if self.request.method == "POST" else None

    @extend_schema(
        summary="Ask for my data's export",
        description=(
            "The workers write everything the server keeps of the account into one JSON "
            "document, a batch of games at a time: the account, every game it sat in or created "
            "with the game's whole event log, every rating change and every tournament entry. "
            "Answers the export's status (202); while one is being written, asking again answers "
            "it, and once one is finished, asking again starts a new one. Follow it at "
            "`GET accounts/me/export/`, download it at `accounts/me/export/download/`. "
            "Throttled by the `expensive` rate."
        ),
        request=None,
        responses={202: ExportStatusSerializer},
        tags=["accounts"],
    )
    def post(self, request: Request) -> Response:
        made = export_files.account_export_request(player=request_player(request))
        response = Response(_status(made), status=202)
        response["Location"] = reverse("account-export")
        return response

    @extend_schema(
        summary="My data's export",
        description=(
            "The status of the account's export: being written (with the games written so far), "
            "ready (with where to download it, until `expires_at`) or failed."
        ),
        responses={200: ExportStatusSerializer},
        tags=["accounts"],
    )
    @refuses(Refusal.EXPORT_NOT_FOUND)
    def get(self, request: Request) -> Response:
        found = export_files.account_export_of(request_player(request))
        if found is None:
            raise Refusal.EXPORT_NOT_FOUND.error()
        return Response(_status(found))


class ExportDownloadView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "expensive"

    @extend_schema(
        summary="Download my data's export",
        description=(
            "The account's export as one JSON document (an attachment, `account.json`), once it "
            "is ready: sent as it is stored, gzip-compressed (`Content-Encoding: gzip`), to a "
            "client that accepts gzip, else as plain JSON. Throttled by the `expensive` rate."
        ),
        parameters=[OpenApiParameter("Accept-Encoding", str, OpenApiParameter.HEADER)],
        responses={200: OpenApiResponse(serializer(Export), description="The document")},
        tags=["accounts"],
    )
    @refuses(Refusal.EXPORT_NOT_FOUND, Refusal.EXPORT_NOT_READY)
    def get(self, request: Request) -> StreamingHttpResponse:
        found = export_files.account_export_of(request_player(request))
        if found is None:
            raise Refusal.EXPORT_NOT_FOUND.error()
        if found.status != ExportStatus.READY:
            raise Refusal.EXPORT_NOT_READY.error()
        gzipped = _accepts_gzip(request)
        chunks = export_files.export_chunks(found, gzipped=gzipped)
        response = StreamingHttpResponse(chunks, content_type="application/json")
        response["Content-Disposition"] = 'attachment; filename="account.json"'
        response["Content-Length"] = str(found.stored_size if gzipped else found.size)
        response["Vary"] = "Accept-Encoding"
        if gzipped:
            response["Content-Encoding"] = "gzip"
        return response
