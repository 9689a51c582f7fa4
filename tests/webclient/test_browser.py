"""The reference web client (/play/) in a real browser: Debian's chromium driven by Playwright
against a whole live server (web, worker, timers: tests/webclient/live.py).

A person registers, plays a whole Yatzy game against the computer, one turn of it left to the
auto-confirm, and a whole Dés 10 000 game against a hot-seat player, while a second browser
context (another person, signed out) watches that game live and sees every move; and a second
person joins an open game from the lobby and hears on the account stream that it is their turn;
a person enters a tournament and withdraws; two people seek a game from the lobby, are paired
into one, and after a resignation both ask for a rematch and land in the new game; a seek paired
while its page's account stream was down still takes that page to the game once it reconnects;
a watched game's stream refused while the stream tier is away (the proxy's 502) is opened again
by the page, which then shows every move once; games are ended early (abort, leave, cancel, a
claim refused), a finished game's fair dice are proved in the browser (and a tampered log caught),
a hidden tab's title marks its turn, and the aria-live region says the moves; after a rated
game the leaderboard and the game's seats lead to each player's page (ratings, statistics), and
the game is read move by move beside its replay, stepped by buttons and keys. axe-core (pinned in
package-lock.json here, installed by `make install`) finds no serious or critical violation on
any page, on a desktop or a phone, whose header is one line. Every wait is on a state of the
page, never a fixed sleep. About six minutes on this project's 2-core machine.

With UPDATE_SCREENSHOTS=1 the screenshots of docs/webclient.md (phone and desktop, two languages)
are written to docs/screenshots/; else to the test's temporary folder.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import pytest

from tests.webclient.live import ROOT, LiveServer

if TYPE_CHECKING:  # the module importorskip returns, read with its types
    from playwright import sync_api as playwright_api
    from playwright.sync_api import Browser, Locator, Page, Route, ViewportSize
else:  # where Playwright is not installed, these tests are skipped rather than failed
    playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CHROMIUM = "/usr/bin/chromium"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None, reason="needs chromium (apt-get install chromium)"
    ),
]
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 375, "height": 812}


def free_port() -> int:
    # LIVE_TEST_PORTS (e.g. 8800-8899) keeps runs side by side on one machine apart.
    low, high = (int(p) for p in os.environ.get("LIVE_TEST_PORTS", "8700-8799").split("-"))
    for port in range(low, high + 1):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {low}-{high}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(free_port(), tmp_path_factory.mktemp("live"))
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        folder = ROOT / "docs" / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path


@pytest.fixture(autouse=True)
def _patient_expect() -> None:
    # A computer's turn is several moves, each a Celery task a fraction of a second apart.
    expect.set_options(timeout=30_000)


# The errors each page's scripts raised and left uncaught ("pageerror"), from its opening on.
ERRORS: WeakKeyDictionary[Page, list[str]] = WeakKeyDictionary()


def errors_of(page: Page) -> list[str]:
    return ERRORS[page]


def new_page(browser: Browser, server: LiveServer, viewport: ViewportSize) -> Page:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The page runs under its Content-Security-Policy (config.web.page_policy): a violation is an
    # error of the page as much as an exception is.
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    ERRORS[page] = errors
    page.goto(f"{server.url}/play/")
    return page


def register(page: Page, name: str) -> str:
    page.get_by_test_id("auth").locator("input[name=username]").fill(name)
    page.get_by_test_id("auth").locator("input[name=password]").fill("a-long-passphrase")
    page.get_by_test_id("auth-submit").click()
    expect(page.get_by_test_id("who")).to_have_text(name)
    return name


def version(page: Page) -> int:
    shown = page.get_by_test_id("game").get_attribute("data-version")
    assert shown is not None
    return int(shown)


def filled(page: Page, seat: int) -> int:
    return page.locator(f"td.filled[data-testid^='cell-{seat}-']").count()


def language(page: Page, code: str, view: str = "game") -> None:
    page.get_by_test_id("language").select_option(code)
    expect(page.locator("html")).to_have_attribute("lang", code)
    expect(page.get_by_test_id(view)).to_be_visible()


def kinds_answer(page: Page, server: LiveServer, lang: str) -> dict[str, Any]:
    """GET kinds/ in `lang`, as the page reads it."""
    answer = page.request.get(f"{server.url}/api/v1/kinds/", headers={"Accept-Language": lang})
    assert answer.ok
    body: dict[str, Any] = answer.json()
    return body


def expect_values(options: Locator, expected: list[str]) -> None:
    """The options' values are `expected` once the page has settled: a redraw may be replacing
    them (a language switched), so this retries for a while, as `expect` does."""
    deadline = time.monotonic() + 5
    values = options.evaluate_all("els => els.map((e) => e.value)")
    while values != expected and time.monotonic() < deadline:
        options.page.wait_for_timeout(50)
        values = options.evaluate_all("els => els.map((e) => e.value)")
    assert values == expected


def expect_option_fields(page: Page, schema: dict[str, Any], prefix: str) -> None:
    """The form's fields for a kind's options are its schema's: an `enum` a select of its values
    with the default chosen, a number an input with its range, step and default; each labelled
    by the schema's `title`."""
    for name, option in schema["properties"].items():
        field = page.get_by_test_id(f"{prefix}{name}")
        label = page.locator("label").filter(has=field)
        expect(label).to_contain_text(option["title"])
        if "enum" in option:
            expect(field.locator("option")).to_have_text([str(v) for v in option["enum"]])
            # Each option's value is its place in the enum: the default's is the one chosen.
            expect(field).to_have_value(str(option["enum"].index(option["default"])))
            continue
        assert option["type"] in ("integer", "number"), option
        expect(field).to_have_attribute("type", "number")
        for bound in ("minimum", "maximum"):
            shown = field.get_attribute(bound[:3])
            assert shown is not None and float(shown) == option[bound], (name, bound, shown)
        shown = field.input_value()
        assert float(shown) == option["default"], (name, shown)
        step = field.get_attribute("step")
        assert step == ("1" if option["type"] == "integer" else "any"), (name, step)


def test_the_forms_and_boards_come_from_get_kinds(browser: Browser, server: LiveServer) -> None:
    """The new-game form, the seek form and the leaderboards offer what GET kinds/ answers, in
    the page's language: its kinds by name, each kind's computer levels (the default chosen),
    its options' fields (their values or ranges and defaults), and the turn clocks."""
    page = new_page(browser, server, DESKTOP)
    register(page, "eve")
    answers = {lang: kinds_answer(page, server, lang) for lang in ("en", "fr")}
    # Two languages, two answers (the levels' names differ): each form below is in the page's.
    assert answers["en"] != answers["fr"]
    for lang, answer in answers.items():
        page.get_by_test_id("language").select_option(lang)
        names = [kind["name"] for kind in answer["kinds"]]
        # The seek form (the lobby's): its kinds, their options, the clocks the API accepts.
        page.get_by_test_id("nav-lobby").click()
        seek = page.get_by_test_id("seek")
        expect(seek.get_by_test_id("seek-kind").locator("option")).to_have_text(names)
        clocks = seek.get_by_test_id("seek-clock").locator("option")
        expect(clocks).to_have_count(1 + len(answer["turn_clocks"]))
        expect_values(clocks, ["", *(str(s) for s in answer["turn_clocks"])])
        for kind in answer["kinds"]:
            seek.get_by_test_id("seek-kind").select_option(kind["kind"])
            expect_option_fields(page, kind["options"], "seek-")
        # The new-game form: its kinds, each one's levels and options.
        page.get_by_test_id("nav-new").click()
        expect(page.get_by_test_id("kind").locator("option")).to_have_text(names)
        page.get_by_test_id("add-computer").click()
        level = page.get_by_test_id("seat-computer").get_by_test_id("level")
        for kind in answer["kinds"]:
            page.get_by_test_id("kind").select_option(kind["kind"])
            expect(level.locator("option")).to_have_text([lv["name"] for lv in kind["levels"]])
            expect_values(level.locator("option"), [lv["level"] for lv in kind["levels"]])
            expect(level).to_have_value(kind["default_level"])
            expect_option_fields(page, kind["options"], "")
        # The leaderboards: one per kind, titled by its name.
        page.get_by_test_id("nav-boards").click()
        for kind in answer["kinds"]:
            expect(page.get_by_test_id(f"board-{kind['kind']}").locator("h2")).to_have_text(
                kind["name"]
            )
    assert errors_of(page) == []


def test_a_kind_without_a_drawing_is_shown_plainly(browser: Browser, server: LiveServer) -> None:
    """A kind the server plays and the client has no drawing for (here a Yatzy game's answers
    renamed on their way to the page) is drawn by generic.js: whose turn, the totals, the
    moves its state offers, which the player can send; not an error."""
    page = new_page(browser, server, DESKTOP)
    register(page, "gil")
    page.get_by_test_id("nav-new").click()
    page.get_by_test_id("kind").select_option("yatzy")
    page.get_by_test_id("add-computer").click()
    page.get_by_test_id("create").click()
    game = page.get_by_test_id("game")
    expect(game).to_have_attribute("data-status", "active")
    game_id = game.get_attribute("data-game")

    def renamed(route: Route) -> None:
        body = route.fetch().json()
        for answer in (body, body.get("game")):
            if isinstance(answer, dict) and "kind" in answer:
                answer["kind"] = "unknown_kind"
        route.fulfill(json=body)

    page.route(re.compile(rf"/api/v1/games/{game_id}/(moves/)?$"), renamed)
    page.reload()
    expect(game).to_have_attribute("data-status", "active")
    expect(page.get_by_test_id("dice")).to_have_count(0)
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn")
    expect(page.get_by_test_id("totals").locator("tr")).to_have_count(3)
    before = version(page)
    # Yatzy's roll with no dice held needs nothing more than its type.
    page.get_by_test_id("move-roll").click()
    expect(game).not_to_have_attribute("data-version", str(before))
    expect(page.get_by_test_id("countdown")).to_have_count(0)
    assert errors_of(page) == []


def test_a_watched_game_goes_on_live_after_its_stream_was_refused(
    browser: Browser, server: LiveServer
) -> None:
    """While the stream tier is away (killed, restarting) the proxy answers a game's stream with
    a 502, and a browser's EventSource gives up for good on an answer that is not a stream: the
    page opens a new one a moment later, from the last event it has, and misses nothing."""
    host = new_page(browser, server, DESKTOP)
    register(host, "kai")
    host.get_by_test_id("nav-new").click()
    host.get_by_test_id("kind").select_option("yatzy")
    host.get_by_test_id("add-computer").click()
    host.get_by_test_id("create").click()
    game = host.get_by_test_id("game")
    expect(game).to_have_attribute("data-status", "active")
    game_id = game.get_attribute("data-game")

    watcher = new_page(browser, server, PHONE)
    refused: list[str] = []

    def tier_away_twice(route: Route) -> None:
        if len(refused) < 2:
            refused.append(route.request.url)
            route.fulfill(status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>")
        else:
            route.continue_()

    watcher.route(re.compile(rf"/api/v1/games/{game_id}/stream/"), tier_away_twice)
    watcher.goto(f"{server.url}/play/#/watch/{game_id}")
    expect(watcher.get_by_test_id("live")).to_have_class(re.compile(r"\bon\b"))
    assert len(refused) == 2

    # The host's turn, then the computer's: the watcher sees each move, once and in order.
    host.get_by_test_id("roll").click()
    host.locator("[data-testid^='box-']").first.click()
    host.get_by_test_id("confirm").click()
    expect(host.locator("td.filled[data-testid^='cell-1-']")).to_have_count(1)
    final = version(host)
    expect(watcher.get_by_test_id("game")).to_have_attribute("data-version", str(final))
    log = watcher.get_by_test_id("log").locator("li")
    expect(log).to_have_count(final)
    seqs = log.evaluate_all("els => els.map(e => Number(e.dataset.seq))")
    assert seqs == list(range(final, 0, -1))
    assert errors_of(host) == [] and errors_of(watcher) == []


def test_yatzy_against_the_computer(browser: Browser, server: LiveServer, shots: Path) -> None:
    page = new_page(browser, server, DESKTOP)
    register(page, "ann")
    page.get_by_test_id("nav-new").click()
    page.get_by_test_id("kind").select_option("yatzy")
    page.get_by_test_id("add-computer").click()
    # The levels read as GET kinds/ names them (in the page's language), the strongest first;
    # sent as codes.
    levels = {kind["kind"]: kind["levels"] for kind in kinds_answer(page, server, "en")["kinds"]}
    level = page.get_by_test_id("seat-computer").get_by_test_id("level")
    expect(level.locator("option")).to_have_text([lv["name"] for lv in levels["yatzy"]])
    assert [lv["level"] for lv in levels["yatzy"]] == ["optimal", "casual"]
    expect(level).to_have_value("optimal")
    page.get_by_test_id("kind").select_option("ten_thousand")
    expect(level.locator("option")).to_have_text([lv["name"] for lv in levels["ten_thousand"]])
    assert [lv["level"] for lv in levels["ten_thousand"]] == ["expert", "classic"]
    page.get_by_test_id("kind").select_option("yatzy")
    page.get_by_test_id("create").click()
    game = page.get_by_test_id("game")
    expect(game).to_have_attribute("data-status", "active")
    game_id = game.get_attribute("data-game")
    seats = page.request.get(f"{server.url}/api/v1/games/{game_id}/").json()["seats"]
    assert [seat["ai_level"] for seat in seats][1] == "optimal"

    sacrifice_seen = False
    for turn in range(13):
        roll = page.get_by_test_id("roll")
        expect(roll).to_be_visible()
        expect(roll).to_have_attribute("data-rolls-left", "3")
        roll.click()
        expect(roll).to_have_attribute("data-rolls-left", "2")
        if turn == 0:
            # The auto-confirmed turn: roll three times, then wait for the server to score it.
            page.get_by_test_id("die-0").click()
            expect(page.get_by_test_id("die-0")).to_have_attribute("aria-pressed", "true")
            roll.click()
            expect(roll).to_have_attribute("data-rolls-left", "1")
            roll.click()
            expect(page.get_by_test_id("countdown")).to_have_text(re.compile(r"\d s"))
            expect(page.get_by_test_id("countdown")).to_be_visible()
            expect(page.locator("td.filled[data-testid^='cell-0-']")).to_have_count(1)
            continue
        boxes = page.locator("[data-testid^='box-']")
        expect(boxes.first).to_be_visible()
        points = [int(p) for p in boxes.evaluate_all("els => els.map(e => e.dataset.points)")]
        zero = [i for i, p in enumerate(points) if p == 0]
        if zero and not sacrifice_seen:
            boxes.nth(zero[0]).click()
            expect(page.get_by_test_id("sacrifice")).to_be_visible()
            sacrifice_seen = True
        best = max(range(len(points)), key=lambda i: points[i])
        boxes.nth(best).click()
        expect(page.get_by_test_id("confirm")).to_contain_text(f"({points[best]})")
        if turn == 3:
            page.screenshot(path=str(shots / "yatzy-desktop-en.png"))
            language(page, "fr")
            page.set_viewport_size(PHONE)
            expect(page.get_by_test_id("confirm")).to_contain_text("Valider")
            page.screenshot(path=str(shots / "yatzy-phone-fr.png"), full_page=True)
            page.set_viewport_size(DESKTOP)
            language(page, "en")
        page.get_by_test_id("confirm").click()
        expect(page.locator("td.filled[data-testid^='cell-0-']")).to_have_count(turn + 1)

    expect(game).to_have_attribute("data-status", "finished")
    expect(page.get_by_test_id("result")).to_be_visible()
    expect(page.locator("td.filled[data-testid^='cell-1-']")).to_have_count(13)
    # The computer's turns came from the stream: every event of the log is listed once, in order.
    final = version(page)
    expect(page.get_by_test_id("log").locator("li")).to_have_count(final)
    seqs = (
        page.get_by_test_id("log")
        .locator("li")
        .evaluate_all("els => els.map(e => Number(e.dataset.seq))")
    )
    assert seqs == list(range(final, 0, -1))
    analysis = page.get_by_test_id("analysis")
    href = analysis.get_attribute("href")
    assert href is not None
    assert href.startswith(f"/api/v1/games/{game_id}/analysis.svg")
    assert page.request.get(f"{server.url}{analysis.get_attribute('href')}").ok
    # The page gave its seat a client seed of its own with its first roll, after the game's hash
    # was shown (the page shows it too): the log names it, and every roll is by it.
    answer = page.request.get(f"{server.url}/api/v1/games/{game_id}/").json()
    fairness = answer["fairness"]
    expect(page.get_by_test_id("fair-dice")).to_contain_text(fairness["server_seed_hash"][:16])
    mine = fairness["seats"][0]
    assert re.fullmatch(r"[0-9a-f]{32}", mine["client_seed"]) and mine["fixed"]
    log = page.request.get(f"{server.url}/api/v1/games/{game_id}/events/?after=0").json()
    first = next(e for e in log["events"] if e["type"] == "dice_rolled")
    assert (first["data"]["seat"], first["data"]["client_seed"]) == (0, mine["client_seed"])
    assert server.manage("verify_dice", str(game_id)).endswith("every roll matches the seeds\n")
    assert errors_of(page) == []


def test_ten_thousand_hot_seat_watched_live(
    browser: Browser, server: LiveServer, shots: Path
) -> None:
    page = new_page(browser, server, DESKTOP)
    register(page, "bea")
    page.get_by_test_id("language").select_option("fr")
    page.get_by_test_id("nav-new").click()
    page.get_by_test_id("kind").select_option("ten_thousand")
    page.get_by_test_id("add-hotseat").click()
    page.get_by_test_id("seat-hotseat").locator("input").fill("Zoé")
    page.get_by_test_id("target").select_option("5000")
    page.get_by_test_id("create").click()
    game = page.get_by_test_id("game")
    expect(game).to_have_attribute("data-status", "active")
    game_id = game.get_attribute("data-game")

    watcher = new_page(browser, server, PHONE)
    watcher.get_by_test_id("language").select_option("uk")
    watcher.goto(f"{server.url}/play/#/watch/{game_id}")
    watched = watcher.get_by_test_id("game")
    expect(watcher.get_by_test_id("watching")).to_be_visible()
    expect(watcher.get_by_test_id("live")).to_have_class(re.compile(r"\bon\b"))

    seen = {"risk": False, "last_round": False, "screenshot": False}
    while game.get_attribute("data-status") == "active":
        before = version(page)
        if page.get_by_test_id("banner-last_round").count():
            seen["last_round"] = True
        dice = page.locator("[data-testid^='die-']")
        if dice.count() == 0:
            page.get_by_test_id("roll").click()
        else:
            scoring = page.locator("[data-testid^='die-'][data-scoring=true]")
            for i in range(scoring.count()):
                scoring.nth(i).click()
                # Each tap counts, even one landing as the stream's echo of the last move arrives.
                expect(scoring.nth(i)).to_have_class(re.compile(r"\bheld\b"))
            expect(page.get_by_test_id("selection")).not_to_have_class("warning")
            risk = page.get_by_test_id("risk-next")
            expect(risk).to_be_visible()
            seen["risk"] = True
            left = dice.count() - scoring.count()
            if not seen["screenshot"] and before > 6:
                page.screenshot(path=str(shots / "ten-thousand-desktop-fr.png"))
                expect(watched).to_have_attribute("data-version", str(before))
                watcher.screenshot(path=str(shots / "ten-thousand-phone-uk.png"), full_page=True)
                seen["screenshot"] = True
            roll = page.get_by_test_id("roll")
            if left >= 3 and roll.count() and roll.is_enabled():
                roll.click()
            else:
                page.get_by_test_id("bank").click()
        expect(game).not_to_have_attribute("data-version", str(before))

    expect(game).to_have_attribute("data-status", "finished")
    assert seen["risk"] and seen["last_round"], seen
    expect(page.get_by_test_id("winner")).to_be_visible()
    # The watcher saw every move, once each and in order, and the same end.
    final = version(page)
    expect(watched).to_have_attribute("data-version", str(final))
    expect(watched).to_have_attribute("data-status", "finished")
    expect(watcher.get_by_test_id("log").locator("li")).to_have_count(final)
    seqs = (
        watcher.get_by_test_id("log")
        .locator("li")
        .evaluate_all("els => els.map(e => Number(e.dataset.seq))")
    )
    assert seqs == list(range(final, 0, -1))
    expect(watcher.get_by_test_id("winner")).to_have_text(
        re.compile(re.escape(page.get_by_test_id("result").locator("td").nth(1).inner_text()))
    )
    assert errors_of(page) == [] and errors_of(watcher) == []


def test_join_an_open_game_and_hear_your_turn(browser: Browser, server: LiveServer) -> None:
    """Another person joins an open game from the lobby; the creator's page sees the seat taken
    and starts it; when the turn passes, the joiner's lobby hears it on the account stream (a
    stream ticket, then EventSource) and marks the game as theirs to play."""
    host = new_page(browser, server, DESKTOP)
    register(host, "cid")
    host.get_by_test_id("nav-new").click()
    host.get_by_test_id("add-open").click()
    host.get_by_test_id("create").click()
    game = host.get_by_test_id("game")
    expect(game).to_have_attribute("data-status", "open")
    game_id = game.get_attribute("data-game")
    expect(host.get_by_test_id("start")).to_have_count(0)

    guest = new_page(browser, server, PHONE)
    register(guest, "dan")
    guest.locator(f"[data-testid=open-games] [data-game='{game_id}']").get_by_test_id(
        "join"
    ).click()
    expect(guest.get_by_test_id("game")).to_have_attribute("data-status", "open")
    # The guest's page joined with a client seed of its own (the open game showed its hash).
    seats = host.request.get(f"{server.url}/api/v1/games/{game_id}/").json()["fairness"]["seats"]
    assert seats[0]["client_seed"] == "" and re.fullmatch(r"[0-9a-f]{32}", seats[1]["client_seed"])

    host.get_by_test_id("start").click()
    expect(game).to_have_attribute("data-status", "active")
    expect(guest.get_by_test_id("game")).to_have_attribute("data-status", "active")

    guest.get_by_test_id("nav-lobby").click()
    row = guest.locator(f"[data-testid=my-games] [data-game='{game_id}']")
    expect(row).to_be_visible()
    expect(row.get_by_test_id("your-turn")).to_have_count(0)
    host.get_by_test_id("roll").click()
    best = host.locator("[data-testid^='box-']").first
    best.click()
    host.get_by_test_id("confirm").click()
    expect(row.get_by_test_id("your-turn")).to_be_visible()
    row.get_by_test_id("play").click()
    expect(guest.get_by_test_id("roll")).to_have_attribute("data-rolls-left", "3")
    # The guest gives up: in a game of two the host wins, and both pages say so.
    guest.once("dialog", lambda dialog: dialog.accept())
    guest.get_by_test_id("resign").click()
    expect(guest.get_by_test_id("winner")).to_contain_text("cid")
    expect(game).to_have_attribute("data-status", "finished")
    expect(host.get_by_test_id("winner")).to_contain_text("cid")
    assert errors_of(host) == [] and errors_of(guest) == []


def new_hot_seat_game(page: Page, kind: str = "yatzy") -> str:
    """A game of `kind` against a hot-seat player, started: its id."""
    page.get_by_test_id("nav-new").click()
    page.get_by_test_id("kind").select_option(kind)
    page.get_by_test_id("add-hotseat").click()
    page.get_by_test_id("create").click()
    game = page.get_by_test_id("game")
    expect(game).to_have_attribute("data-status", "active")
    game_id = game.get_attribute("data-game")
    assert game_id is not None
    return game_id


def play_a_yatzy_turn(page: Page) -> None:
    """Roll twice (the keyboard's focus staying on Roll across the redraw), then score."""
    roll = page.get_by_test_id("roll")
    roll.click()
    expect(roll).to_have_attribute("data-rolls-left", "2")
    roll.focus()
    page.keyboard.press("Enter")
    expect(roll).to_have_attribute("data-rolls-left", "1")
    expect(roll).to_be_focused()
    page.locator("[data-testid^='box-']").first.click()
    page.get_by_test_id("confirm").click()
    expect(roll).to_have_attribute("data-rolls-left", "3")  # the next seat's turn


def test_abort_before_the_dice_are_thrown_and_not_after(
    browser: Browser, server: LiveServer
) -> None:
    """Abort is offered until the first dice are thrown, and asks first in the page (No puts it
    back); the aborted game shows its seed. Once a die is rolled only Resign is left; the
    aria-live region says each move as it comes, and the turn as it passes."""
    page = new_page(browser, server, DESKTOP)
    register(page, "mia")
    game_id = new_hot_seat_game(page)
    abort = page.get_by_test_id("abort")
    expect(abort).to_be_visible()
    expect(page.get_by_test_id("resign")).to_be_visible()
    expect(page.get_by_test_id("claim")).to_have_count(0)  # every seat is mine
    abort.click()
    expect(page.get_by_test_id("abort-ask")).to_contain_text("Nobody wins")
    page.get_by_test_id("abort-no").click()
    expect(page.get_by_test_id("abort-ask")).to_have_count(0)
    abort.click()
    page.get_by_test_id("abort-yes").click()
    game = page.get_by_test_id("game")
    expect(game).to_have_attribute("data-status", "aborted")
    expect(page.get_by_test_id("abort")).to_have_count(0)
    expect(page.get_by_test_id("resign")).to_have_count(0)
    answer = page.request.get(f"{server.url}/api/v1/games/{game_id}/").json()
    assert answer["status"] == "aborted" and answer["fairness"]["server_seed"]
    # An aborted game reveals its seed too: no roll to check, the hash holds.
    expect(page.get_by_test_id("proof-seed")).to_have_text(answer["fairness"]["server_seed"])
    expect(page.get_by_test_id("proof-result")).to_contain_text("(0 rolls)")

    new_hot_seat_game(page)
    expect(page.get_by_test_id("abort")).to_be_visible()
    spoken = page.get_by_test_id("announce")
    expect(spoken).to_have_attribute("aria-live", "polite")
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("abort")).to_have_count(0)
    expect(page.get_by_test_id("resign")).to_be_visible()
    expect(spoken).to_contain_text(re.compile(r"mia rolled( \d){5}"))
    first = page.get_by_test_id("log").locator("li").first.inner_text()
    assert re.search(r"mia rolled( \d){5}", first), first
    page.locator("[data-testid^='box-']").first.click()
    page.get_by_test_id("confirm").click()
    expect(spoken).to_contain_text("scored")
    expect(spoken.locator("p").last).to_have_text("Your turn")  # the hot seat's, mine to play
    # A page opened later says nothing of the moves before it (they are the log).
    page.reload()
    expect(page.get_by_test_id("roll")).to_be_visible()
    expect(page.get_by_test_id("announce").locator("p")).to_have_count(0)
    expect(page.get_by_test_id("abort")).to_have_count(0)
    assert errors_of(page) == []


# The page believes its tab hidden while `window.hidden` is true (Playwright's pages are shown).
HIDDEN = "Object.defineProperty(document, 'hidden', {get: () => window.hidden === true})"


def test_leave_cancel_and_claim(browser: Browser, server: LiveServer) -> None:
    """An open game: the creator may cancel it (after saying yes in the page), a person who
    joined may leave it (the seat is open again, the creator's page shows it). A game in play
    between two people: the one waiting may claim the idle seat, and the server's refusal (too
    early) is shown in the page's words; when the turn comes to a hidden tab, its title says so
    until it is shown."""
    host = new_page(browser, server, DESKTOP)
    register(host, "noa")
    guest = new_page(browser, server, PHONE)
    register(guest, "oli")
    guest.add_init_script(HIDDEN)
    guest.reload()
    expect(guest.get_by_test_id("who")).to_have_text("oli")

    def open_game() -> str:
        host.get_by_test_id("nav-new").click()
        host.get_by_test_id("add-open").click()
        host.get_by_test_id("create").click()
        expect(host.get_by_test_id("game")).to_have_attribute("data-status", "open")
        game_id = host.get_by_test_id("game").get_attribute("data-game")
        assert game_id is not None
        guest.get_by_test_id("nav-boards").click()  # the lobby read again, whatever was shown
        guest.get_by_test_id("nav-lobby").click()
        guest.locator(f"[data-testid=open-games] [data-game='{game_id}']").get_by_test_id(
            "join"
        ).click()
        expect(guest.get_by_test_id("game")).to_have_attribute("data-game", game_id)
        return game_id

    game_id = open_game()
    expect(host.get_by_test_id("cancel")).to_be_visible()
    expect(host.get_by_test_id("leave")).to_have_count(0)
    expect(guest.get_by_test_id("leave")).to_be_visible()
    expect(guest.get_by_test_id("cancel")).to_have_count(0)
    expect(host.get_by_test_id("start")).to_be_visible()  # every seat taken
    guest.get_by_test_id("leave").click()
    row = guest.locator(f"[data-testid=open-games] [data-game='{game_id}']")
    expect(row.get_by_test_id("join")).to_be_visible()  # back in the lobby, the seat open
    expect(host.get_by_test_id("start")).to_have_count(0)
    seats = host.request.get(f"{server.url}/api/v1/games/{game_id}/").json()["seats"]
    assert [seat["open"] for seat in seats] == [False, True]

    host.get_by_test_id("cancel").click()
    expect(host.get_by_test_id("cancel-ask")).to_contain_text("deleted for everyone")
    host.get_by_test_id("cancel-yes").click()
    expect(host.get_by_test_id("game")).to_have_count(0)
    expect(host.get_by_test_id("seek")).to_be_visible()  # the lobby
    assert host.request.get(f"{server.url}/api/v1/games/{game_id}/").status == 404

    game_id = open_game()
    host.get_by_test_id("start").click()
    expect(host.get_by_test_id("game")).to_have_attribute("data-status", "active")
    expect(guest.get_by_test_id("game")).to_have_attribute("data-status", "active")
    expect(host.get_by_test_id("claim")).to_have_count(0)  # my own turn
    guest.get_by_test_id("claim").click()
    expect(guest.get_by_test_id("claim-ask")).to_contain_text("noa")
    guest.get_by_test_id("claim-yes").click()
    expect(guest.get_by_test_id("notice")).to_contain_text("idle long enough")
    expect(guest.get_by_test_id("game")).to_have_attribute("data-status", "active")

    following(guest)
    title = guest.title()
    guest.evaluate("window.hidden = true")
    host.get_by_test_id("roll").click()
    host.locator("[data-testid^='box-']").first.click()
    host.get_by_test_id("confirm").click()
    expect(guest.get_by_test_id("roll")).to_be_visible()
    expect(guest).to_have_title(f"(•) Your turn — {title}")
    expect(guest.get_by_test_id("claim")).to_have_count(0)
    expect(host.get_by_test_id("claim")).to_be_visible()
    guest.evaluate("window.hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    expect(guest).to_have_title(title)
    assert errors_of(host) == [] and errors_of(guest) == []


def test_the_fair_dice_proof(browser: Browser, server: LiveServer) -> None:
    """A finished game's page shows its seeds and checks every roll of the log in the browser
    (Web Crypto): all match, as the server's verify_dice says. A log whose die was changed on its
    way (the events answer intercepted) is reported: that roll, its dice and the seeds'."""
    page = new_page(browser, server, DESKTOP)
    register(page, "pia")
    game_id = new_hot_seat_game(page)
    expect(page.get_by_test_id("proof")).to_have_count(0)  # the seed is secret until the end
    play_a_yatzy_turn(page)  # mine
    play_a_yatzy_turn(page)  # the hot seat's
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("resign").click()
    expect(page.get_by_test_id("game")).to_have_attribute("data-status", "finished")
    fairness = page.request.get(f"{server.url}/api/v1/games/{game_id}/").json()["fairness"]
    assert fairness["version"] == 2 and fairness["server_seed"]
    expect(page.get_by_test_id("proof-hash")).to_have_text(fairness["server_seed_hash"])
    expect(page.get_by_test_id("proof-seed")).to_have_text(fairness["server_seed"])
    seats = page.get_by_test_id("proof-seat")
    expect(seats).to_have_count(2)
    for seat, shown in zip(fairness["seats"], seats.all(), strict=True):
        assert re.fullmatch(r"[0-9a-f]{32}", seat["client_seed"])
        expect(shown).to_contain_text(seat["client_seed"])
    result = page.get_by_test_id("proof-result")
    expect(result).to_contain_text("is the hash shown from the start")
    expect(result).to_contain_text("Every roll matches the seeds (4 rolls).")
    expect(result).to_have_attribute("data-ok", "true")
    assert server.manage("verify_dice", game_id).endswith("every roll matches the seeds\n")

    log = page.request.get(f"{server.url}/api/v1/games/{game_id}/events/?after=0").json()
    second = [e for e in log["events"] if e["type"] == "dice_rolled"][1]
    thrown = [i for i in range(5) if i not in second["data"]["held"]]
    assert thrown, second  # the second roll of a turn holds at most what the page held: none
    changed = list(second["data"]["dice"])
    changed[thrown[0]] = changed[thrown[0]] % 6 + 1

    def tampered(route: Route) -> None:
        body = route.fetch().json()
        for event in body["events"]:
            if event["seq"] == second["seq"]:
                event["data"]["dice"] = changed
        route.fulfill(json=body)

    page.route(re.compile(rf"/api/v1/games/{game_id}/events/"), tampered)
    page.reload()
    expect(result).to_have_attribute("data-ok", "false")
    rolled = " ".join(str(changed[i]) for i in thrown)
    given = " ".join(str(second["data"]["dice"][i]) for i in thrown)
    expect(result).to_contain_text(
        f"Event {second['seq']}, roll 2 of pia: rolled {rolled}, the seeds give {given}."
    )
    expect(result).not_to_contain_text("Every roll matches")
    expect(result).to_contain_text("is the hash shown from the start")
    assert errors_of(page) == []


def test_the_proof_follows_the_documented_formula_in_both_versions(
    browser: Browser, server: LiveServer
) -> None:
    """proof.js's check against the Python of games.rules.fairness, on logs made here: version
    2 (each seat's rolls numbered, its seed from its first roll) and version 1 (the game's rolls
    numbered, one client seed), rolls that hold dice and rolls of many dice (a second HMAC block,
    bytes of 252 or more skipped). Each honest log matches; a changed die is named, and so is a
    seat's first roll that names no seed."""
    from games.rules.fairness import dice, seat_dice, seed_hash

    seed = bytes(range(32))
    # A roll of 40 dice reads two blocks and, with this seed, skips a byte of 252 or more.
    prefixes = ["ann:0:1", "ann,:2", ":1:2", "ann,:5"]  # the four 40-dice rolls' messages
    blocks = [hmac.new(seed, f"{p}:0".encode(), hashlib.sha256).digest() for p in prefixes]
    assert any(byte >= 252 for block in blocks for byte in block), "pick another seed"
    counts = [5, 3, 40, 6, 1, 40]  # thrown by each roll, seats 0 and 1 in turn
    seats_seeds = ["ann", ""]

    def log(version: int) -> list[dict[str, Any]]:
        events, made = [], [0, 0]
        for index, count in enumerate(counts):
            seat = index % 2
            nonce = made[seat] if version == 2 else index
            made[seat] += 1
            faces = list(
                seat_dice(seed, seats_seeds[seat], seat, nonce, count)
                if version == 2
                else dice(seed, "ann,", nonce, count)
            )
            data: dict[str, Any] = {"seat": seat, "dice": faces}
            if count == 3:  # a yatzy-shaped roll: positions 0 and 2 held, their dice kept
                data = {"seat": seat, "held": [0, 2], "dice": [6, faces[0], 6, faces[1], faces[2]]}
            if version == 2 and made[seat] == 1:
                data["client_seed"] = seats_seeds[seat]
            events.append({"seq": index + 2, "type": "dice_rolled", "data": data})
        return [{"seq": 1, "type": "game_started", "data": {}}, *events]

    page = new_page(browser, server, DESKTOP)
    check = "([f, e]) => import('/static/webclient/proof.js').then((m) => m.check(f, e))"
    for version in (1, 2):
        fairness = {
            "version": version,
            "server_seed": seed.hex(),
            "server_seed_hash": seed_hash(seed),
            "client_seed": "ann," if version == 1 else None,
        }
        events = log(version)
        result = page.evaluate(check, [fairness, events])
        assert result == {"hashHolds": True, "rolls": 6, "wrong": []}, (version, result)
        events[2]["data"]["dice"][0] = 1  # a held die: not thrown, not checked
        assert page.evaluate(check, [fairness, events])["wrong"] == []
        events[3]["data"]["dice"][39] = events[3]["data"]["dice"][39] % 6 + 1
        wrong = page.evaluate(check, [fairness, events])["wrong"]
        assert [(w["seq"], w["seat"], w["nonce"]) for w in wrong] == [
            (4, 0, 1 if version == 2 else 2)
        ], wrong
        result = page.evaluate(check, [{**fairness, "server_seed_hash": "0" * 64}, log(version)])
        assert result["hashHolds"] is False and result["wrong"] == []
    unseeded = log(2)
    del unseeded[2]["data"]["client_seed"]  # seat 1's first roll ("" is its seed, but unsaid)
    wrong = page.evaluate(check, [fairness, unseeded])["wrong"]
    assert [(w["seq"], w["unseeded"]) for w in wrong] == [(3, True)], wrong
    assert errors_of(page) == []


def test_follow_and_enter_a_tournament(browser: Browser, server: LiveServer) -> None:
    server.manage(
        "shell",
        "-c",
        "from datetime import timedelta; from django.utils import timezone\n"
        "from games.tournaments.services import tournament_create\n"
        "from players.models import Player\n"
        "org, _ = Player.objects.get_or_create(username='org', defaults={'is_staff': True})\n"
        "tournament_create(created_by=org, name='Demo cup', kind='yatzy', format='swiss',"
        " rounds=3, starts_at=timezone.now() + timedelta(days=1),"
        " computers=['optimal', 'casual'], rated=False)",
    )
    page = new_page(browser, server, PHONE)
    register(page, "fay")
    page.get_by_test_id("tournament-link").filter(has_text="Demo cup").click()
    tournament = page.get_by_test_id("tournament")
    expect(tournament).to_contain_text("Demo cup")
    entrants = page.get_by_test_id("entrants").locator("li")
    expect(entrants).to_have_count(2)
    page.get_by_test_id("enter").click()
    expect(entrants).to_have_count(3)
    expect(page.get_by_test_id("entrants")).to_contain_text("fay")
    page.get_by_test_id("withdraw").click()
    expect(entrants).to_have_count(2)
    assert errors_of(page) == []


def following(page: Page) -> None:
    """The account's stream is open (the page marks it): notes sent from now on reach it."""
    expect(page.locator("body")).to_have_class(re.compile(r"\bfollowing\b"))


def seek(page: Page, *, clock: str, rating_max: str = "") -> None:
    form = page.get_by_test_id("seek")
    form.get_by_test_id("seek-kind").select_option("yatzy")
    form.get_by_test_id("seek-clock").select_option(clock)
    form.get_by_test_id("seek-rating_max").fill(rating_max)
    form.get_by_test_id("seek-submit").click()


def test_seek_an_opponent_then_rematch(browser: Browser, server: LiveServer) -> None:
    """Two people seek a Yatzy game with the same options from the lobby: the first waits (its
    seek listed, withdrawable), the second's seek pairs at once and its page goes to the game,
    the first's hears `seek_paired` on the account stream and goes there too. One resigns; both
    press Rematch (the second sees the first's offer, from `rematch_offered`), and both land in
    the new game: the last offer's answer names it, the other hears `rematch_started`."""
    host = new_page(browser, server, DESKTOP)
    register(host, "gus")
    guest = new_page(browser, server, PHONE)
    register(guest, "hal")
    following(host)
    following(guest)

    # A rated seek needs a clock: ticking "rated" leaves no "no clock" to choose.
    host.get_by_test_id("seek-rated").check()
    expect(host.get_by_test_id("seek-clock")).not_to_have_value("")
    host.get_by_test_id("seek-submit").click()
    rows = host.get_by_test_id("seek-row")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Rated")
    rows.get_by_test_id("withdraw-seek").click()
    expect(rows).to_have_count(0)
    # Two redraws of the lobby later the form still holds what was chosen (rated, a clock).
    expect(host.get_by_test_id("seek-rated")).to_be_checked()
    expect(host.get_by_test_id("seek-clock")).not_to_have_value("")
    host.get_by_test_id("seek-rated").uncheck()

    seek(host, clock="60")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Casual")
    expect(rows).to_contain_text("60 s")
    following(host)  # the lobby redrawn: still following
    seek(guest, clock="60", rating_max="2000")
    game = guest.get_by_test_id("game")
    expect(game).to_have_attribute("data-status", "active")
    game_id = game.get_attribute("data-game")
    expect(host.get_by_test_id("game")).to_have_attribute("data-game", game_id)
    expect(host.get_by_test_id("game")).to_have_attribute("data-status", "active")
    # The 60 s clock, from the game's deadline: both players count it, the one to move or not.
    counting = re.compile(r"Time to move: (1:00|0:[0-5]\d)")
    for page in (host, guest):
        expect(page.get_by_test_id("clock")).to_have_text(counting)

    guest.once("dialog", lambda dialog: dialog.accept())
    guest.get_by_test_id("resign").click()
    expect(guest.get_by_test_id("winner")).to_contain_text("gus")
    expect(host.get_by_test_id("winner")).to_contain_text("gus")
    expect(host.get_by_test_id("rematch-offered")).to_have_count(0)

    guest.get_by_test_id("rematch").click()
    expect(guest.get_by_test_id("rematch-waiting")).to_be_visible()
    expect(host.get_by_test_id("rematch-offered")).to_contain_text("hal")
    # A page opened after the offer (the stream's note gone by) reads it from the game.
    host.reload()
    expect(host.get_by_test_id("rematch-offered")).to_contain_text("hal")
    host.get_by_test_id("rematch").click()
    expect(host.get_by_test_id("game")).not_to_have_attribute("data-game", game_id)
    expect(host.get_by_test_id("game")).to_have_attribute("data-status", "active")
    rematch_id = host.get_by_test_id("game").get_attribute("data-game")
    expect(guest.get_by_test_id("game")).to_have_attribute("data-game", rematch_id)
    expect(guest.get_by_test_id("game")).to_have_attribute("data-status", "active")
    # Back at the finished game, the page shows the way to its rematch.
    guest.goto(f"{server.url}/play/#/game/{game_id}")
    expect(guest.get_by_test_id("to-rematch")).to_have_attribute("href", f"#/game/{rematch_id}")
    assert errors_of(host) == [] and errors_of(guest) == []


def test_a_seek_paired_while_the_stream_was_down(browser: Browser, server: LiveServer) -> None:
    """The account stream replays nothing: a `seek_paired` sent while it was down never comes.
    When it opens again, the lobby reads each seek it showed (`GET seeks/{id}/`): one withdrawn
    meanwhile leaves the lobby, one paired meanwhile takes the page to its game."""
    host = new_page(browser, server, DESKTOP)
    register(host, "ida")
    guest = new_page(browser, server, PHONE)
    register(guest, "jon")
    following(host)
    # The page's own modules (app.js imports ./notes.js): the same instances, the same stream.
    notes = "import('/static/webclient/notes.js').then((m) => m.{}())"
    api = "import('/static/webclient/api.js').then((m) => m.api({}))"
    rows = host.get_by_test_id("seek-row")

    # Withdrawn behind the page's back (another tab, say) while its stream was down.
    seek(host, clock="300")
    expect(rows).to_have_count(1)
    seek_id = rows.get_attribute("data-seek")
    host.evaluate(notes.format("stopFollowing"))
    expect(host.locator("body")).not_to_have_class(re.compile(r"\bfollowing\b"))
    host.evaluate(api.format(f"'DELETE', 'seeks/{seek_id}/'"))
    expect(rows).to_have_count(1)  # nothing told the page
    host.evaluate(notes.format("followAccount"))
    following(host)
    expect(rows).to_have_count(0)

    # Paired while the stream was down: the guest's seek finds the host's.
    seek(host, clock="300")
    expect(rows).to_have_count(1)
    host.evaluate(notes.format("stopFollowing"))
    expect(host.locator("body")).not_to_have_class(re.compile(r"\bfollowing\b"))
    seek(guest, clock="300")
    game = guest.get_by_test_id("game")
    expect(game).to_have_attribute("data-status", "active")
    game_id = game.get_attribute("data-game")
    # With no stream, the host's page cannot have heard: it is still in the lobby, seek shown.
    assert host.evaluate("location.hash") in ("", "#/")
    expect(rows).to_have_count(1)
    expect(host.get_by_test_id("game")).to_have_count(0)
    host.evaluate(notes.format("followAccount"))
    expect(host.get_by_test_id("game")).to_have_attribute("data-game", game_id)
    expect(host.get_by_test_id("game")).to_have_attribute("data-status", "active")
    following(host)

    # Paired while the page was away (reloaded): the tab remembers the seeks it showed.
    for page in (host, guest):
        page.goto(f"{server.url}/play/#/")
    seek(host, clock="120")
    expect(rows).to_have_count(1)
    host.evaluate(notes.format("stopFollowing"))
    seek(guest, clock="120")
    expect(game).not_to_have_attribute("data-game", game_id)
    expect(game).to_have_attribute("data-status", "active")
    again = game.get_attribute("data-game")
    host.reload()
    expect(host.get_by_test_id("game")).to_have_attribute("data-game", again)
    assert errors_of(host) == [] and errors_of(guest) == []


def sign_in(page: Page, name: str, password: str) -> None:
    auth = page.get_by_test_id("auth")
    if auth.get_by_test_id("auth-submit").inner_text() != "Sign in":
        auth.get_by_test_id("auth-switch").click()
    auth.locator("input[name=username]").fill(name)
    auth.locator("input[name=password]").fill(password)
    auth.get_by_test_id("auth-submit").click()


def test_the_account_page_changes_the_password_and_revokes_tokens(
    browser: Browser, server: LiveServer
) -> None:
    """A person signed in on two browsers: the account page lists both tokens, this one
    marked; revoking the other signs that browser out at its next request; changing the
    password keeps this one signed in; revoking its own token signs it out."""
    desk = new_page(browser, server, DESKTOP)
    register(desk, "lou")
    phone = new_page(browser, server, PHONE)
    sign_in(phone, "lou", "a-long-passphrase")
    expect(phone.get_by_test_id("who")).to_have_text("lou")

    desk.get_by_test_id("nav-account").click()
    tokens = desk.get_by_test_id("token")
    expect(tokens).to_have_count(2)
    mine = desk.locator("[data-testid=token][data-current=true]")
    expect(mine.get_by_test_id("this-device")).to_be_visible()
    desk.locator("[data-testid=token][data-current=false]").get_by_test_id("revoke").click()
    expect(tokens).to_have_count(1)
    phone.get_by_test_id("nav-boards").click()  # its next request: refused, it signs out
    expect(phone.get_by_test_id("notice")).to_be_visible()
    phone.get_by_test_id("nav-lobby").click()
    expect(phone.get_by_test_id("auth")).to_be_visible()

    form = desk.get_by_test_id("password")
    form.locator("input[name=current_password]").fill("a-long-passphrase")
    form.locator("input[name=new_password]").fill("another-long-passphrase")
    form.get_by_test_id("password-submit").click()
    expect(desk.get_by_test_id("notice")).to_contain_text("Password changed")
    expect(tokens).to_have_count(1)
    sign_in(phone, "lou", "another-long-passphrase")
    expect(phone.get_by_test_id("who")).to_have_text("lou")

    desk.reload()  # the phone's new token listed
    expect(tokens).to_have_count(2)
    mine.get_by_test_id("revoke").click()
    expect(desk.get_by_test_id("auth")).to_be_visible()
    assert errors_of(desk) == [] and errors_of(phone) == []


def test_the_account_page_changes_the_name_and_the_language(
    browser: Browser, server: LiveServer
) -> None:
    """The account page saves the display name and the language (PATCH accounts/me/): the page
    speaks it at once and the bar shows the new name; a name that passes for another account's
    is refused, in the page's language. Signed in, the bar's switcher saves the language too,
    and a browser that signs in adopts it; the browser's language chosen again, the page
    speaks the browser's."""
    other = new_page(browser, server, PHONE)
    register(other, "zed")
    desk = new_page(browser, server, DESKTOP)
    register(desk, "vic")
    desk.get_by_test_id("nav-account").click()
    form = desk.get_by_test_id("profile")
    name = form.locator("input[name=display_name]")
    expect(name).to_have_attribute("placeholder", "vic")
    name.fill("Vicky")
    form.get_by_test_id("profile-language").select_option("fr")
    form.get_by_test_id("profile-submit").click()
    expect(desk.get_by_test_id("notice")).to_have_text("Enregistré.")
    expect(desk.get_by_test_id("who")).to_have_text("Vicky")
    expect(desk.locator("html")).to_have_attribute("lang", "fr")
    expect(desk.get_by_test_id("language")).to_have_value("fr")
    expect(desk.get_by_test_id("profile-language")).to_have_value("fr")

    name = desk.get_by_test_id("profile").locator("input[name=display_name]")
    expect(name).to_have_value("Vicky")
    name.fill("ZED")
    desk.get_by_test_id("profile-submit").click()
    refused = desk.request.get(
        f"{server.url}/api/v1/errors/display_name_taken/", headers={"Accept-Language": "fr"}
    ).json()
    expect(desk.get_by_test_id("notice")).to_have_text(refused["title"])
    expect(desk.get_by_test_id("who")).to_have_text("Vicky")

    desk.get_by_test_id("language").select_option("uk")  # signed in: the account's now
    expect(desk.locator("html")).to_have_attribute("lang", "uk")
    expect(desk.get_by_test_id("profile-language")).to_have_value("uk")
    phone = new_page(browser, server, PHONE)
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    sign_in(phone, "vic", "a-long-passphrase")
    expect(phone.get_by_test_id("who")).to_have_text("Vicky")
    expect(phone.locator("html")).to_have_attribute("lang", "uk")
    expect(phone.get_by_test_id("language")).to_have_value("uk")

    phone.get_by_test_id("nav-account").click()
    phone.get_by_test_id("profile-language").select_option("")
    phone.get_by_test_id("profile").locator("input[name=display_name]").fill("")
    phone.get_by_test_id("profile-submit").click()
    expect(phone.get_by_test_id("notice")).to_have_text("Saved.")  # the browser's: English
    expect(phone.get_by_test_id("who")).to_have_text("vic")
    expect(phone.get_by_test_id("language")).to_have_value("en")
    assert errors_of(desk) == [] and errors_of(phone) == [] and errors_of(other) == []


# axe-core as tests/webclient/package-lock.json pins it (`make install` runs npm ci there).
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
# What fails the check: axe-core's two highest impacts (minor and moderate are left to review).
SERIOUS = ("serious", "critical")


def violations(page: Page) -> list[tuple[str, str, list[Any]]]:
    """axe-core's serious and critical violations on the page as it is drawn now: each rule's
    id, its help and the first elements it names. The script is evaluated through the driver,
    which the page's Content-Security-Policy does not govern (its own scripts stay under it)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make install` installs it (npm ci in tests/webclient)")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("axe.run(document, { resultTypes: ['violations'] })")
    return [
        (v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


def assert_accessible(page: Page, where: str) -> None:
    assert violations(page) == [], where


def test_the_accessibility_check_finds_what_it_looks_for(
    browser: Browser, server: LiveServer
) -> None:
    """The check is not blind: an input without a label, grey on grey and a button with no name,
    put into the lobby, are each reported."""
    page = new_page(browser, server, DESKTOP)
    expect(page.get_by_test_id("auth")).to_be_visible()
    assert violations(page) == []
    page.evaluate(
        """() => {
          const main = document.getElementById("main");
          main.insertAdjacentHTML("beforeend", '<input type="text"><button></button>');
          const faint = document.createElement("p");
          faint.textContent = "hard to read";
          faint.style.color = "#ccc";
          main.append(faint);
        }"""
    )
    found = {rule for rule, _, _ in violations(page)}
    assert {"label", "color-contrast", "button-name"} <= found, found


def token_of(page: Page) -> str:
    token = page.evaluate("localStorage.getItem('dice.token')")
    assert isinstance(token, str)
    return token


def play_a_rated_yatzy_game(page: Page, server: LiveServer, tokens: list[str]) -> str:
    """Two accounts seek a rated Yatzy game through the API and play it to the end, each turn
    one roll and the best box: the finished game's id."""
    url = f"{server.url}/api/v1/"

    def send(method: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
        answer = page.request.fetch(
            url + path, method=method, headers={"Authorization": f"Token {token}"}, data=body
        )
        assert answer.ok, (path, answer.status, answer.text())
        return answer.json()

    seek = {"kind": "yatzy", "rated": True, "turn_clock_seconds": 300}
    send("POST", "seeks/", tokens[0], seek)
    game_id: str = send("POST", "seeks/", tokens[1], seek)["game"]
    by_seat = {}
    for token in tokens:
        for seat in send("GET", f"games/{game_id}/", token)["your_seats"]:
            by_seat[seat] = token
    game = send("GET", f"games/{game_id}/", tokens[0])
    while game["status"] == "active":
        token, state = by_seat[game["turn_seat"]], game["state"]
        if state["rolls_used"] == 0:
            move: dict[str, Any] = {"type": "roll", "hold": []}
        else:
            move = {
                "type": "score",
                "box": max(state["legal_boxes"], key=lambda b: b["points"])["box"],
            }
        move["expected_version"] = game["version"]
        game = send("POST", f"games/{game_id}/moves/", token, move)["game"]
    assert game["status"] == "finished" and game["rated"], game
    return game_id


def test_a_player_page_and_a_game_move_by_move(
    browser: Browser, server: LiveServer, shots: Path
) -> None:
    """After a rated game, the leaderboard's names and the game's seats link to each player's
    page: the ratings, the record per kind (GET players/{u}/stats/), the rating's history and
    the latest games, which link to the game move by move: each decision (the move chosen, the
    best, the cost) as GET analysis/ gives it, and the replay at each position as GET replay/
    answers it, stepped with the buttons, the arrow keys, Home and End, or a decision's own
    button. Both pages pass axe-core, on a desktop and on a phone."""
    page = new_page(browser, server, DESKTOP)
    register(page, "ivy")
    other = new_page(browser, server, PHONE)
    register(other, "uma")
    game_id = play_a_rated_yatzy_game(page, server, [token_of(page), token_of(other)])

    page.get_by_test_id("nav-boards").click()
    # Other tests' rated players may be listed too.
    links = page.get_by_test_id("board-yatzy").get_by_test_id("player-link")
    expect(links.filter(has_text=re.compile(r"^(ivy|uma)$"))).to_have_count(2)
    links.filter(has_text=re.compile(r"^uma$")).click()
    player = page.get_by_test_id("player")
    expect(player).to_have_attribute("data-username", "uma")
    stats = page.request.get(f"{server.url}/api/v1/players/uma/stats/").json()
    record = next(r for r in stats["kinds"] if r["kind"] == "yatzy")
    cells = page.get_by_test_id("records").locator("tr[data-kind=yatzy] td")
    expect(cells).to_have_count(7)
    expect(cells.nth(1)).to_have_text(str(record["games"]))
    expect(cells.nth(2)).to_have_text(str(record["wins"]))
    (rated,) = page.request.get(f"{server.url}/api/v1/players/uma/").json()["ratings"]
    expect(page.get_by_test_id("ratings")).to_contain_text(str(round(rated["rating"])))
    (change,) = stats["rating_history"]
    expect(page.get_by_test_id("history-yatzy")).to_contain_text(
        f"{round(change['rating_before'])} → {round(change['rating_after'])}"
    )
    assert_accessible(page, "a player's page")

    # From the game's own page: its seats link to their players, its result to the analysis.
    page.goto(f"{server.url}/play/#/game/{game_id}")
    expect(page.get_by_test_id("result")).to_be_visible()
    seats = page.request.get(f"{server.url}/api/v1/games/{game_id}/").json()["seats"]
    expect(page.get_by_test_id("players").get_by_test_id("player-link")).to_have_text(
        [seat["player"]["username"] for seat in seats]
    )
    page.get_by_test_id("move-by-move").click()
    view = page.get_by_test_id("analysis-page")
    expect(view).to_be_visible()
    analysis = page.request.get(f"{server.url}/api/v1/games/{game_id}/analysis/").json()
    rows = page.get_by_test_id("decision")
    expect(rows).to_have_count(len(analysis["decisions"]))
    costly = [d for d in analysis["decisions"] if d["loss"] > 0]
    assert costly, analysis["decisions"]  # one roll a turn is rarely the best
    decision = costly[len(costly) // 2]
    row = page.locator(f"[data-testid=decision][data-seq='{decision['seq']}']")
    expect(row.get_by_test_id("loss")).to_have_text(f"{decision['loss']:g}")
    expect(row).to_contain_text("score ")  # the move made: one roll, then a box
    version = page.request.get(f"{server.url}/api/v1/games/{game_id}/").json()["version"]
    at = page.get_by_test_id("replay")

    def shows(position: int) -> None:
        expect(at).to_have_attribute("data-at", str(position))
        state = page.request.get(
            f"{server.url}/api/v1/games/{game_id}/replay/?at={position}"
        ).json()["state"]
        if state is None:
            expect(page.get_by_test_id("replay-board")).to_contain_text("Before the first move")
            return
        faces = (
            page.get_by_test_id("replay-board")
            .locator(".die")
            .evaluate_all("els => els.map(e => Number(e.dataset.face))")
        )
        assert faces == (state["dice"] or [0] * 5), (position, faces, state["dice"])

    shows(version)
    row.get_by_test_id("show-decision").click()
    shows(decision["seq"] - 1)
    expect(row).to_have_attribute("aria-current", "step")
    page.keyboard.press("ArrowRight")
    shows(decision["seq"])
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    shows(decision["seq"] - 2)
    page.get_by_test_id("replay-next").click()
    shows(decision["seq"] - 1)
    page.keyboard.press("Home")
    shows(0)
    page.get_by_test_id("replay-previous").click()  # nothing before the start
    shows(0)
    page.keyboard.press("End")
    shows(version)
    assert_accessible(page, "a game move by move")
    language(page, "fr", "analysis-page")
    expect(page.get_by_test_id("decisions")).to_contain_text("Coût")
    row.get_by_test_id("show-decision").click()
    shows(decision["seq"] - 1)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "analysis-desktop-fr.png"))
    language(page, "en", "analysis-page")

    page.set_viewport_size(PHONE)
    assert_accessible(page, "a game move by move, on a phone")
    wide = "document.documentElement.scrollWidth"  # a wide table scrolls in its card, not the page
    assert page.evaluate(wide) <= PHONE["width"]
    page.goto(f"{server.url}/play/#/player/ivy")
    expect(page.get_by_test_id("player")).to_have_attribute("data-username", "ivy")
    assert_accessible(page, "a player's page, on a phone")
    assert page.evaluate(wide) <= PHONE["width"]
    page.screenshot(path=str(shots / "player-phone-en.png"), full_page=True)
    assert errors_of(page) == [] and errors_of(other) == []


def test_every_page_passes_axe_and_a_phone_header_is_one_line(
    browser: Browser, server: LiveServer
) -> None:
    """axe-core finds no serious or critical violation on any page of the client: signed out
    (the lobby and its sign-in form, the leaderboards, a tournament), signed in (the lobby with
    the seek form, a new game's form with every kind of seat, the account page), a game in play
    (Yatzy's table and sheet, the question before an abort, Dés 10 000's dice with some set
    aside), a finished game (its result and proof); the same on a phone, whose header is one
    short line whatever the links (all of a signed-in person's, in Ukrainian)."""
    server.manage(
        "shell",
        "-c",
        "from datetime import timedelta; from django.utils import timezone\n"
        "from games.tournaments.services import tournament_create\n"
        "from players.models import Player\n"
        "org, _ = Player.objects.get_or_create(username='org', defaults={'is_staff': True})\n"
        "tournament_create(created_by=org, name='Axe cup', kind='yatzy', format='swiss',"
        " rounds=3, starts_at=timezone.now() + timedelta(days=1),"
        " computers=['optimal', 'casual'], rated=False)",
    )
    for viewport in (DESKTOP, PHONE):
        page = new_page(browser, server, viewport)
        where = f"{viewport['width']} px wide"
        expect(page.get_by_test_id("auth")).to_be_visible()
        assert_accessible(page, f"the lobby, signed out, {where}")
        page.get_by_test_id("tournament-link").filter(has_text="Axe cup").first.click()
        expect(page.get_by_test_id("tournament")).to_contain_text("Axe cup")
        assert_accessible(page, f"a tournament, {where}")
        page.get_by_test_id("nav-boards").click()
        expect(page.get_by_test_id("board-yatzy")).to_be_visible()
        assert_accessible(page, f"the leaderboards, {where}")

        page.get_by_test_id("nav-lobby").click()
        register(page, f"axe{viewport['width']}")
        expect(page.get_by_test_id("seek")).to_be_visible()
        assert_accessible(page, f"the lobby, signed in, {where}")
        page.get_by_test_id("nav-new").click()
        for seat in ("computer", "hotseat", "open"):
            page.get_by_test_id(f"add-{seat}").click()
        assert_accessible(page, f"a new game's form, {where}")
        page.get_by_test_id("nav-account").click()
        expect(page.get_by_test_id("tokens")).to_be_visible()
        assert_accessible(page, f"the account page, {where}")

        new_hot_seat_game(page)
        page.get_by_test_id("abort").click()
        expect(page.get_by_test_id("abort-ask")).to_be_visible()
        assert_accessible(page, f"a game asking before an abort, {where}")
        page.get_by_test_id("abort-no").click()
        page.get_by_test_id("roll").click()
        expect(page.locator("[data-testid^='box-']").first).to_be_visible()
        assert_accessible(page, f"a Yatzy game in play, {where}")
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_test_id("resign").click()
        expect(page.get_by_test_id("proof-result")).to_have_attribute("data-ok", "true")
        assert_accessible(page, f"a finished game and its proof, {where}")

        new_hot_seat_game(page, "ten_thousand")
        page.get_by_test_id("roll").click()
        scoring = page.locator("[data-testid^='die-'][data-scoring=true]")
        if scoring.count():  # else the round is lost at once, the next seat's turn
            scoring.first.click()
        assert_accessible(page, f"a Dés 10 000 game in play, {where}")
        assert errors_of(page) == []

        if viewport is PHONE:
            # The most links the bar has (signed in), in the language of the longest words.
            language(page, "uk")
            header = page.locator("header.bar").bounding_box()
            assert header is not None and header["height"] <= 0.08 * PHONE["height"], header
            nav = page.locator("#nav").bounding_box()
            assert nav is not None and nav["height"] <= header["height"]
            page.get_by_test_id("nav-account").focus()  # reachable by the keyboard, scrolled to
            expect(page.get_by_test_id("nav-account")).to_be_in_viewport()
