# ruff: noqa: RUF001 (Cyrillic and Greek text is the point here)
"""Every language of the API through a yatzy state, a Dés 10 000 game, errors and the admin.

The expected words are the seeds' (the users' own help pages: 000 Ukrainian, 001 Greek, 003
Croatian, 004 Russian yatzy) wherever a seed names them; the rest are this project's translations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from django.test import Client as DjangoClient
from django.utils import translation
from django.utils.translation import gettext
from rest_framework.test import APIClient

from games.presenters import ten_thousand as ten_thousand_view
from players.models import Player
from tests.doubles import ScriptedDice
from tests.factories import GAMES, Client, MakeClient, api_game, game_url

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "fr", "uk", "el", "hr", "ru"]

BOX_LABELS = {
    "en": [
        "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Three of a kind", "Four of a kind",
        "Full house", "Small straight", "Large straight", "Chance", "Yatzy",
    ],
    "fr": [
        "As", "Deux", "Trois", "Quatre", "Cinq", "Six", "Brelan", "Carré", "Full",
        "Petite suite", "Grande suite", "Chance", "Yatzy",
    ],
    # Seed 000's score sheet.
    "uk": [
        "Одиниці", "Двійки", "Трійки", "Четвірки", "П’ятірки", "Шістки", "Трійка", "Каре", "Фул",
        "Малий стрейт", "Великий стрейт", "Шанс", "Пента",
    ],
    # Seed 001's score sheet.
    "el": [
        "Άσοι", "Δύο", "Τρία", "Τέσσερα", "Πέντε", "Έξι", "Τριάδα", "Τετράδα", "Φουλ",
        "Μικρή κέντα", "Μεγάλη κέντα", "Τύχη", "Πέντα",
    ],
    "hr": [
        "Jedinice", "Dvojke", "Trice", "Četvorke", "Petice", "Šestice", "Triling", "Poker", "Ful",
        "Mala skala", "Velika skala", "Šansa", "Yatzy",
    ],
    # Seed 004's categories.
    "ru": [
        "Единицы", "Двойки", "Тройки", "Четвёрки", "Пятёрки", "Шестёрки", "Тройка", "Каре",
        "Фулл-хаус", "Малый стрит", "Большой стрит", "Шанс", "Пять одинаковых",
    ],
}  # fmt: skip
THREE_OF_A_KIND_DESCRIPTION = {
    "en": "At least three dice alike: the sum of all five dice",
    "fr": "Au moins trois dés identiques : la somme des cinq dés",
    "uk": "Щонайменше три однакові кубики: сума всіх п’яти кубиків",
    "el": "Τουλάχιστον τρία ίδια ζάρια: άθροισμα των πέντε ζαριών",
    "hr": "Barem tri iste kockice: zbroj svih pet kockica",
    "ru": "Минимум три одинаковых кубика: сумма всех пяти кубиков",
}
MUST_SACRIFICE = {
    "en": "No open box scores: you must sacrifice one",
    "fr": "Aucune case libre ne rapporte de points : vous devez en sacrifier une",
    "uk": "Жодна відкрита клітинка не дає очок: потрібно пожертвувати однією",
    "el": "Καμία ανοιχτή θέση δεν αποφέρει πόντους: πρέπει να θυσιάσετε μία",
    "hr": "Nijedno slobodno polje ne donosi bodove: morate žrtvovati jedno",
    "ru": "Ни одна открытая категория не даёт очков: нужно пожертвовать одной",
}
# The yatzy move that records the chosen box: the seeds' confirm buttons.
CONFIRM = {
    "en": "Confirm move",
    "fr": "Valider le coup",
    "uk": "Підтвердити хід",
    "el": "Επικύρωση γύρου",
    "hr": "Potvrdi potez",
    "ru": "Играть",
}
ROLL = {"en": "Roll", "fr": "Lancer", "uk": "Кинути", "el": "Ρίψη", "hr": "Baci", "ru": "Бросить"}
# Seed 003 names the bank button by its French label; its Croatian words for banking are
# "spremiti bodove".
BANK = {
    "en": "Bank",
    "fr": "Banquer",
    "uk": "Зберегти очки",
    "el": "Κατοχύρωση",
    "hr": "Spremi bodove",
    "ru": "Сохранить очки",
}
HOT_DICE = {
    "en": "Hot dice!",
    "fr": "Dés chauds !",
    "uk": "Гарячі кубики!",
    "el": "Καυτά ζάρια!",
    "hr": "Vruće kocke!",
    "ru": "Горячие кубики!",
}
LAST_ROUND = {
    "en": "Last round!",
    "fr": "Dernier tour !",
    "uk": "Останнє коло!",
    "el": "Τελευταίος γύρος!",
    "hr": "Posljednji krug!",
    "ru": "Последний круг!",
}
LOST_ROUND = {
    "en": "Lost round!",
    "fr": "Tour perdu !",
    "uk": "Хід втрачено!",
    "el": "Χαμένος γύρος!",
    "hr": "Izgubljen krug!",
    "ru": "Ход потерян!",
}
# Seed 003 quotes the French "Humains + 1 IA"; its Croatian words are people ("ljudski igrači")
# and the computer ("računalo").
HUMANS_PLUS_AI = {
    "en": "Humans + 1 AI",
    "fr": "Humains + 1 IA",
    "uk": "Люди + 1 ШІ",
    "el": "Άνθρωποι + 1 ΤΝ",
    "hr": "Ljudi + 1 računalo",
    "ru": "Люди + 1 ИИ",
}
HOTSEAT_KIND = {
    "en": "Hot-seat player",
    "fr": "Joueur sur le même appareil",
    "uk": "Гравець на цьому ж пристрої",
    "el": "Παίκτης στην ίδια συσκευή",
    "hr": "Igrač na istom uređaju",
    "ru": "Игрок на том же устройстве",
}
IN_PLAY = {
    "en": "In play",
    "fr": "En cours",
    "uk": "Триває",
    "el": "Σε εξέλιξη",
    "hr": "U tijeku",
    "ru": "Идёт",
}
UNKNOWN_MOVE = {
    "en": "Unknown move type.",
    "fr": "Type de coup inconnu.",
    "uk": "Невідомий тип ходу.",
    "el": "Άγνωστος τύπος κίνησης.",
    "hr": "Nepoznata vrsta poteza.",
    "ru": "Неизвестный тип хода.",
}
STALE = {
    "en": "The game has moved on since the version you sent; reload it and retry.",
    "fr": "La partie a avancé depuis la version envoyée ; rechargez-la et réessayez.",
    "uk": "Гра змінилася після надісланої вами версії; оновіть її та спробуйте ще раз.",
    "el": "Το παιχνίδι έχει προχωρήσει από την έκδοση που στείλατε· φορτώστε το ξανά και "
    "δοκιμάστε πάλι.",
    "hr": "Igra je napredovala od verzije koju ste poslali; ponovno je učitajte i pokušajte opet.",
    "ru": "Игра изменилась после отправленной вами версии; обновите её и повторите попытку.",
}
FARKLE = (2, 3, 4, 4, 6, 6)

# The first time a catalogue misses an entry the text stays English; these tables must not repeat
# a language's words across languages by accident.
for table in (
    MUST_SACRIFICE,
    CONFIRM,
    ROLL,
    BANK,
    HOT_DICE,
    LAST_ROUND,
    LOST_ROUND,
    HUMANS_PLUS_AI,
    UNKNOWN_MOVE,
):
    assert len(set(table.values())) == len(LANGUAGES), table


def in_language(lang: str) -> dict[str, Any]:
    """A request's extra environ (the clients' ``**extra``, typed Any by their stubs)."""
    return {"HTTP_ACCEPT_LANGUAGE": lang}


def labels(moves: list[dict[str, str]]) -> dict[str, str]:
    return {move["type"]: move["label"] for move in moves}


@pytest.fixture
def sacrifice_game(make_client: MakeClient, dice: ScriptedDice) -> tuple[Client, str]:
    """A one-seat yatzy game where the dice 1 1 3 4 6 score in no free box (RULES.md example)."""
    alice = make_client()
    game = api_game(alice)
    url = game_url(game["id"], "moves/")
    for roll, box in [
        ((1, 2, 2, 2, 2), "ones"),
        ((3, 2, 2, 2, 2), "threes"),
        ((4, 2, 2, 2, 5), "fours"),
        ((6, 2, 2, 2, 5), "sixes"),
        ((6, 2, 2, 2, 5), "chance"),
    ]:
        dice.push(roll)
        alice.ok("post", url, {"type": "roll"}, status=201)
        alice.ok("post", url, {"type": "score", "box": box}, status=201)
    dice.push((1, 1, 3, 4, 6))
    alice.ok("post", url, {"type": "roll"}, status=201)
    return alice, game["id"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_yatzy_state_in_every_language(sacrifice_game: tuple[Client, str], lang: str) -> None:
    alice, game_id = sacrifice_game
    response = alice.get(game_url(game_id), **in_language(lang))
    assert response.status_code == 200
    assert response["Content-Language"] == lang
    game = response.json()
    assert game["kind"] == "yatzy"
    assert game["kind_name"] == "Yatzy"
    assert game["status"] == "active"
    assert game["status_name"] == IN_PLAY[lang]
    state = game["state"]

    sheet = state["sheets"][0]["boxes"]
    assert [box["label"] for box in sheet] == BOX_LABELS[lang]
    assert all(box["description"] for box in sheet)
    descriptions = {box["box"]: box["description"] for box in sheet}
    assert descriptions["three_of_a_kind"] == THREE_OF_A_KIND_DESCRIPTION[lang]
    legal = {option["box"]: option for option in state["legal_boxes"]}
    assert set(legal) == {"twos", "fives", "three_of_a_kind", "four_of_a_kind", "full_house"} | {
        "small_straight",
        "large_straight",
        "yatzy",
    }
    by_box = dict(zip([box["box"] for box in sheet], BOX_LABELS[lang], strict=True))
    for box, option in legal.items():
        assert option["label"] == by_box[box]
        assert option["description"] == descriptions[box]

    # Machine codes stay as they are beside the words.
    assert state["must_sacrifice"] is True
    assert state["message"] == {"code": "must_sacrifice", "text": MUST_SACRIFICE[lang]}
    assert [move["type"] for move in state["moves"]] == ["roll", "select", "score"]
    assert labels(state["moves"])["score"] == CONFIRM[lang]
    assert labels(state["moves"])["roll"] == ROLL[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ten_thousand_game_in_every_language(
    make_client: MakeClient, dice: ScriptedDice, lang: str
) -> None:
    alice = make_client()
    seats = [{"type": "me"}, {"type": "hotseat", "name": "Bob"}]
    payload = {"kind": "ten_thousand", "options": {"target": 5000}, "seats": seats}
    game = alice.ok("post", GAMES, payload, status=201, **in_language(lang))
    assert game["kind_name"] == "Dés 10 000"
    assert game["seats"][1]["kind_name"] == HOTSEAT_KIND[lang]
    game = alice.ok("post", game_url(game["id"], "start/"), **in_language(lang))
    url = game_url(game["id"], "moves/")

    def move(move_type: str, keep: Sequence[int] = ()) -> dict[str, Any]:
        response = alice.post(url, {"type": move_type, "keep": list(keep)}, **in_language(lang))
        assert response.status_code == 201, response.json()
        assert response["Content-Language"] == lang
        body: dict[str, Any] = response.json()
        return body

    state = game["state"]
    assert labels(state["moves"]) == {"roll": ROLL[lang]}

    # Alice sets all six dice aside: hot dice.
    dice.push((1, 1, 1, 5, 5, 5), (1, 2, 3, 4, 6, 6))
    move("roll")
    body = move("roll", [0, 1, 2, 3, 4, 5])
    state = body["game"]["state"]
    assert {"code": "hot_dice", "text": HOT_DICE[lang]} in state["messages"]
    assert labels(state["moves"]) == {"roll": ROLL[lang], "bank": BANK[lang]}
    move("bank", [0])

    # Bob (hot seat) throws nothing that scores: a lost round, announced with its event.
    dice.push(FARKLE)
    body = move("roll")
    assert [event["type"] for event in body["events"]] == ["dice_rolled", "round_lost"]
    with translation.override(lang):
        announced = [
            message
            for event in body["events"]
            for message in ten_thousand_view.event_messages(event["type"])
        ]
    assert announced == [{"code": "round_lost", "text": LOST_ROUND[lang]}]

    # Alice banks six 1s (8000) past the target: the last round.
    dice.push((1, 1, 1, 1, 1, 1))
    move("roll")
    body = move("bank", [0, 1, 2, 3, 4, 5])
    state = body["game"]["state"]
    assert state["messages"] == [{"code": "last_round", "text": LAST_ROUND[lang]}]
    with translation.override(lang):
        assert ten_thousand_view.event_messages("last_round_started") == state["messages"]
        assert ten_thousand_view.event_messages("hot_dice") == [
            {"code": "hot_dice", "text": HOT_DICE[lang]}
        ]
        assert ten_thousand_view.event_messages("turn_banked") == []
        assert ten_thousand_view.setup_label(["player", "computer"]) == HUMANS_PLUS_AI[lang]
        assert ten_thousand_view.setup_label(["player", "hotseat"]) is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_errors_in_every_language(
    sacrifice_game: tuple[Client, str], anon: APIClient, lang: str
) -> None:
    alice, game_id = sacrifice_game
    url = game_url(game_id, "moves/")

    response = alice.post(url, {"type": "dance"}, format="json", **in_language(lang))
    assert response.status_code == 400
    assert response["Content-Language"] == lang
    body = response.json()
    assert body == {
        "type": "http://testserver/api/v1/errors/unknown_move/",
        "title": UNKNOWN_MOVE[lang],
        "status": 400,
        "code": "unknown_move",
        "detail": UNKNOWN_MOVE[lang],
        "field": "type",
    }

    response = alice.post(
        url, {"type": "roll", "expected_version": 1}, format="json", **in_language(lang)
    )
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"
    assert response.json()["detail"] == STALE[lang]

    # Django REST framework's own messages: its catalogues, and locale/drf for Croatian.
    response = anon.post(url, {"type": "roll"}, format="json", **in_language(lang))
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    required = alice.post(GAMES, {}, format="json", **in_language(lang))
    assert required.status_code == 400
    assert required.json()["code"] == "invalid_input"
    with translation.override(lang):
        expected = gettext("Authentication credentials were not provided.")
        field_required = gettext("This field is required.")
    assert response.json()["detail"] == expected
    assert required.json()["errors"][0]["detail"] == field_required
    if lang != "en":
        assert expected != "Authentication credentials were not provided."
        assert field_required != "This field is required."


def test_lang_parameter_overrides_the_header(sacrifice_game: tuple[Client, str]) -> None:
    alice, game_id = sacrifice_game
    response = alice.get(game_url(game_id) + "?lang=el", **in_language("uk"))
    assert response["Content-Language"] == "el"
    labels_shown = [box["label"] for box in response.json()["state"]["sheets"][0]["boxes"]]
    assert labels_shown == BOX_LABELS["el"]
    # A region is reduced to its language; case does not matter.
    assert alice.get(game_url(game_id) + "?lang=UK-ua")["Content-Language"] == "uk"
    # A language the server does not have leaves the choice to the header, then to English.
    assert alice.get(game_url(game_id) + "?lang=xx", **in_language("fr"))["Content-Language"] == (
        "fr"
    )
    assert alice.get(game_url(game_id) + "?lang=")["Content-Language"] == "en"


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        (None, "en"),
        ("xx", "en"),
        ("de-DE, de;q=0.9", "en"),
        ("fr-CA,fr;q=0.9,en;q=0.5", "fr"),
        ("de, ru;q=0.5", "ru"),
        ("hr-HR", "hr"),
        ("el", "el"),
    ],
)
def test_accept_language_negotiation_falls_back_to_english(
    sacrifice_game: tuple[Client, str], header: str | None, chosen: str
) -> None:
    alice, game_id = sacrifice_game
    extra = {} if header is None else in_language(header)
    response = alice.get(game_url(game_id), **extra)
    assert response["Content-Language"] == chosen
    assert "Accept-Language" in response["Vary"]
    assert response.json()["state"]["sheets"][0]["boxes"][0]["label"] == BOX_LABELS[chosen][0]


def test_unknown_language_errors_are_english(anon: APIClient) -> None:
    response = anon.get(game_url("00000000-0000-0000-0000-000000000000"), **in_language("xx"))
    assert response.status_code == 404
    assert response["Content-Language"] == "en"
    assert response.json()["code"] == "not_found"


@pytest.fixture
def admin_client() -> DjangoClient:
    admin = Player.objects.create_superuser("root", "root@example.com", "root-password-1")
    client = DjangoClient()
    client.force_login(admin)
    return client


@pytest.mark.parametrize("lang", LANGUAGES)
def test_admin_in_every_language(admin_client: DjangoClient, lang: str) -> None:
    with translation.override(lang):
        expected = [gettext("Site administration"), gettext("Games"), gettext("Players")]
    if lang != "en":
        assert expected != ["Site administration", "Games", "Players"]
    page = admin_client.get("/admin/", **in_language(lang))
    assert page.status_code == 200
    assert page["Content-Language"] == lang
    html = page.content.decode()
    for text in expected:
        assert text in html, (lang, text)
    listing = admin_client.get("/admin/games/game/", **in_language(lang))
    assert listing.status_code == 200
    assert listing["Content-Language"] == lang


def test_admin_login_and_lang_parameter(admin_client: DjangoClient) -> None:
    with translation.override("hr"):
        log_in = gettext("Log in")
    login = DjangoClient().get("/admin/login/", **in_language("hr"))
    assert login.status_code == 200
    assert log_in in login.content.decode()
    # ``lang`` is consumed by the middleware, so a change list does not take it for a filter.
    listing = admin_client.get("/admin/games/game/?lang=uk&status__exact=active")
    assert listing.status_code == 200
    assert listing["Content-Language"] == "uk"
    assert "Ігри" in listing.content.decode()
