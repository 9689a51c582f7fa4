"""The greeting at ``/``: what this server is and where to go from here (the web client, the API's
documentation and schema, the kinds it plays). Every word is translated here (the template only
places them), so that Babel's extraction, which reads Python, finds them."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.webclient import LANGUAGES


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    links = [
        (reverse("play"), _("Play in the browser"), _("the reference web client")),
        (
            reverse("swagger-ui"),
            _("API documentation"),
            _("every endpoint, to read and to try"),
        ),
        (reverse("schema"), _("OpenAPI schema"), _("the contract, to generate a client from")),
        (
            reverse("kind-list"),
            _("Game kinds"),
            _("the games this server plays: their options, moves and turn clocks"),
        ),
    ]
    context = {
        "title": _("Dice games server"),
        "intro": _(
            "Play dice games against people and computer players, in the browser or from a "
            "client of your own through the REST API."
        ),
        "links": links,
        "language_label": _("Language"),
        "languages": LANGUAGES,
    }
    return render(request, "home.html", context)
