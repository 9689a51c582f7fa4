"""The reference web client at ``/play/``: one page and plain JavaScript modules that talk only to
the public API and its streams, as any client would. The page is the same for everyone (who is
signed in, the game and the language live in the browser): the view reads and writes nothing.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

#: The languages of locale/, which the client offers; the server's words come in the one chosen.
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("uk", "Українська"),
    ("el", "Ελληνικά"),
    ("hr", "Hrvatski"),
    ("ru", "Русский"),
]


@require_safe
def play(request: HttpRequest) -> HttpResponse:
    # The game kinds and the turn clocks are not on the page: the client reads them from the API
    # (GET kinds/), as any other client would.
    return render(request, "webclient/play.html", {"languages": LANGUAGES})
