"""The reference web client at ``/play/``: one page and plain JavaScript modules (no build step)
that talk only to the public API and its streams, as any third-party client would.

The page is the same for everyone; who is signed in, the game shown and the language live in the
browser (localStorage and the URL's hash), so the view reads nothing and writes nothing.
"""

from django.conf import settings
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
    # The turn clocks a game or a seek may have: the seek form offers these (the API refuses others
    # with `invalid_turn_clock`), so the page and the server cannot disagree.
    clocks = ",".join(str(seconds) for seconds in settings.TURN_CLOCK_CHOICES)
    return render(request, "webclient/play.html", {"languages": LANGUAGES, "turn_clocks": clocks})
