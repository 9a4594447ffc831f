"""More rough edges of a director's and a player's day, each through its page: the
Crawford game announced (S7), the scoresheet as long as the series can still be, the
player's form after a submission, the confirmation page's result and record."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.helpers import EN, a_record, tournament_data
from tournaments.models import Player, Series, Tournament
from tournaments.services.pairings import round_generate
from tournaments.services.results import game_enter_quick
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db

CS: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "cs"}


def _event(variant: str, **settings: object) -> tuple[Tournament, Series, Client]:
    """A two-player round robin directed by "boss", whose players have accounts."""
    boss = User.objects.create_user("boss", password="a-long-secret-1")
    defaults: dict[str, object] = {
        "variant": variant, "format": "round_robin", "series_mode": "points",
        "series_length": 3, "first_move": "loser", "published": True,
    }  # fmt: skip
    t = tournament_create(
        name=f"{variant} day", start_date=datetime.date(2026, 12, 2), **(defaults | settings)
    )
    t.directors.add(boss)
    for name, username in (("Adam", "adam"), ("Bára", "bara")):
        user = User.objects.create_user(username, password="a-long-secret-1")
        entry_register(tournament=t, player=Player.objects.create(name=name, user=user))
    round_generate(tournament=t)
    series = Series.objects.get(tournament=t, player2__isnull=False)
    client = Client()
    client.force_login(boss)
    return t, series, client


def _as(username: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


def _players(series: Series) -> tuple[Player, Player]:
    assert series.player1 is not None and series.player2 is not None
    return series.player1, series.player2


# finding 9: the Crawford game is said, and post-Crawford after it -------------------


CRAWFORD = {
    "en": "Game 3 is the Crawford game: no doubling (S7).",
    "cs": "Hra 3 je Crawfordova: bez zdvojování (S7).",
}
POST_CRAWFORD = {
    "en": "Game 4 is post-Crawford: the doubling cube is used again (S7).",
    "cs": "Hra 4 je pokrawfordovská: kostka zdvojení opět platí (S7).",
}


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_crawford_game_is_said_on_the_series_page_and_every_entry_form_s7(lang: str) -> None:
    """Short backgammon with the cube to 5: Adam on 4 after two mars; game 3 is the
    Crawford game on the series page (spectator, director, player) and the scoresheet;
    game 4 is post-Crawford."""
    _t, series, boss = _event("short", cube=True, series_length=5)
    adam, bara = _players(series)
    headers: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": lang}
    url = reverse("tournaments:series", args=[series.pk])
    assert CRAWFORD[lang] not in boss.get(url, **headers).content.decode()
    game_enter_quick(series=series, white=adam, winner=adam, kind="mars")
    game_enter_quick(series=series, white=bara, winner=adam, kind="mars")
    for client in (Client(), boss, _as("adam"), _as("bara")):
        page = client.get(url, **headers).content.decode()
        assert CRAWFORD[lang] in page
    entry = boss.get(url, **headers).content.decode().split('id="enter-heading"')[1]
    assert CRAWFORD[lang] in entry and 'name="cube"' in entry  # the cube is hidden there
    assert 'type="hidden" name="cube"' in entry
    player_form = _as("bara").get(url, **headers).content.decode().split('id="enter-heading"')[1]
    assert CRAWFORD[lang] in player_form
    sheet = boss.get(reverse("tournaments:series_sheet", args=[series.pk]), **headers)
    assert CRAWFORD[lang] in sheet.content.decode()
    game_enter_quick(series=series, white=bara, winner=bara, kind="oin")
    page = boss.get(url, **headers).content.decode()
    assert CRAWFORD[lang] not in page and POST_CRAWFORD[lang] in page


def test_no_crawford_word_without_the_cube_or_in_a_series_of_n_games() -> None:
    _t, series, boss = _event("short", cube=False, series_length=5)
    adam, bara = _players(series)
    game_enter_quick(series=series, white=adam, winner=adam, kind="mars")
    game_enter_quick(series=series, white=bara, winner=adam, kind="mars")
    page = boss.get(reverse("tournaments:series", args=[series.pk]), **EN).content.decode()
    assert "Crawford" not in page


# finding 10: the scoresheet's rows, the player's form, the confirmation page ---------


def _rows(client: Client, series: Series) -> int:
    page = client.get(reverse("tournaments:series_sheet", args=[series.pk]), **EN)
    return page.content.decode().count('<fieldset class="card game-fieldset"')


@pytest.mark.parametrize(
    ("settings", "rows"),
    [
        ({}, 5),  # to 3 points, no draws: 2:2 in wins and a fifth
        ({"last_roll": True, "draw_scoring": "half"}, 6),  # six ½-point draws reach 3:3
        ({"last_roll": True, "draw_scoring": "one"}, 5),
        ({"series_mode": "games", "series_length": 3}, 3),
        ({"series_length": 9}, 17),  # no longer cut at 15
    ],
)
def test_the_scoresheet_has_as_many_rows_as_the_series_can_take(
    settings: dict[str, object], rows: int
) -> None:
    _t, series, boss = _event("long", **settings)
    assert _rows(boss, series) == rows


def test_the_scoresheet_counts_the_games_played() -> None:
    """To 3 points, Adam 1:0 up: Bára can still win three and Adam one more."""
    _t, series, boss = _event("long")
    adam, _bara = _players(series)
    game_enter_quick(series=series, white=adam, winner=adam, kind="oin")
    assert _rows(boss, series) == 4
    page = boss.get(reverse("tournaments:series_sheet", args=[series.pk]), **EN).content.decode()
    assert "Game 2</legend>" in page and "Game 5</legend>" in page and "Game 6<" not in page


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_after_a_submission_the_players_form_says_the_game_waits(lang: str) -> None:
    """No "Submit game 1" again: game 1 waits for confirmation and the form is for game 2
    already (a player reports game 2 while game 1 waits); once confirmed, still game 2."""
    _t, series, director = _event("long")
    adam, _bara = _players(series)
    headers: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": lang}
    url = reverse("tournaments:series", args=[series.pk])
    player = _as("adam")
    posted = player.post(
        reverse("tournaments:enter_quick", args=[series.pk]),
        {"number": "1", "white": adam.pk, "winner": adam.pk, "kind": "mars", "ended": "played"},
    )
    assert posted.status_code == 302
    waits = {"en": "Game 1 waits for confirmation", "cs": "Hra 1 čeká na potvrzení"}[lang]
    submit = {"en": "Submit game", "cs": "Nahlásit hru"}[lang]
    for who in ("adam", "bara"):
        page = _as(who).get(url, **headers).content.decode()
        assert waits in page, who
        assert f"{submit} 1" not in page and f"{submit} 2" in page, who
    assert 'id="quick-form"' in director.get(url, **headers).content.decode()
    sub = series.submissions.get()
    confirmed = _as("bara").post(reverse("tournaments:decide", args=[sub.pk, "confirm"]))
    assert confirmed.status_code == 302
    page = player.get(url, **headers).content.decode()
    assert f"{submit} 2" in page and waits not in page


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_confirmation_page_says_who_won_and_shows_the_moves_numbered(lang: str) -> None:
    _t, series, _boss = _event("long")
    adam, bara = _players(series)
    record = a_record(adam.name, bara.name, seed=3, want="white mars")
    posted = _as("adam").post(
        reverse("tournaments:enter_record", args=[series.pk]), {"number": "1", "record": record}
    )
    assert posted.status_code == 302, posted.content.decode()[:2000]
    headers: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": lang}
    page = _as("bara").get(reverse("tournaments:confirmations"), **headers).content.decode()
    card = page.split('<article class="card">')[1].split("</article>")[0]
    won = {"en": "Adam won (mars)", "cs": "Vyhrál(a) Adam (mars)"}[lang]
    assert won in card
    moves = card.split('<pre class="record">')[1].split("</pre>")[0]
    assert "[Variant" not in moves and re.match(r"\s*1\. ", moves), moves[:200]
    assert re.search(r"\b2\. ", moves)
    # the series page lists the waiting submission with its result too
    series_page = _as("adam").get(reverse("tournaments:series", args=[series.pk]), **headers)
    assert won in series_page.content.decode()
    # and confirming the stored (canonical) record gives the game
    sub = series.submissions.get()
    assert _as("bara").post(reverse("tournaments:decide", args=[sub.pk, "confirm"])).status_code
    series.refresh_from_db()
    assert series.games.get().winner == adam


# finding 11: the tournament form offers only what applies, and the server refuses the rest


def _director() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("chief", password="a-long-secret-1"))
    return client


def test_the_form_marks_what_each_game_and_format_has() -> None:
    """From setup.py's rules: "by lot" only for games with a lot (not Lurč, Z1), the
    draw's score only for long nardy (L10), tie-breaks only for formats with standings;
    the alternation is said without a colour (Lurč's starter has black)."""
    page = _director().get(reverse("tournaments:tournament_new"), **EN).content.decode()
    assert re.search(r'<option value="lot" data-games="long short"', page)
    assert re.search(r'<option value="loser"( selected)? data-games="long short lurc"', page)
    assert "who had black" not in page and "alternately (the players swap colours)" in page
    draw_row = page.split('id="id_draw_scoring"')[0].rsplit('<div class="setting"', 1)[1]
    assert 'data-games="long"' in draw_row
    tie_breaks = page.split("Tie-breaks, in order")[0].rsplit("<fieldset", 1)[1]
    assert 'data-formats="manual round_robin double_round_robin swiss"' in tie_breaks
    assert "static/js/tournament_form.js" in page or "tournament_form" in page
    assert "<script>" not in page  # no inline script (CSP)


REFUSED = {
    "elimination tie-breaks": (
        {"format": "single_elimination", "tie_break_1": "progressive", "tie_break_2": ""},
        {"en": "single elimination ranks by the bracket: it has no tie-breaks.",
         "cs": "vyřazovací systém: pořadí určuje pavouk, pomocná hodnocení nemá."},
    ),
    "lurc draw": (
        {"variant": "lurc", "draw_scoring": "one"},
        {"en": "Lurč has no draws (L10): a draw&#x27;s score is not its setting.",
         "cs": "Lurč nezná remízu (L10): bodování remízy se v něm nenastavuje."},
    ),
    "lurc lot": (
        {"variant": "lurc", "first_move": "lot"},
        {"en": "Lurč has no lot: black starts (Z1)",
         "cs": "Lurč nemá los: začíná černý (Z1)"},
    ),
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "cs"])
@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_form_refuses_a_setting_the_game_or_format_lacks(case: str, lang: str) -> None:

    changes, said = REFUSED[case]
    response = _director().post(
        reverse("tournaments:tournament_new"), tournament_data(**changes),
        HTTP_ACCEPT_LANGUAGE=lang,
    )  # fmt: skip
    assert response.status_code == 400
    assert said[lang] in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_form_accepts_what_applies() -> None:
    """An elimination event with its tie-break selects left empty (as the script leaves
    them) or at the untouched default; Lurč alternating."""

    client = _director()
    for i, changes in enumerate([
        {"format": "single_elimination", "tie_break_1": "", "tie_break_2": ""},
        {"variant": "lurc", "first_move": "alternate", "draw_scoring": ""},
        {"variant": "lurc", "first_move": "winner"},
    ]):  # fmt: skip
        data = tournament_data(name=f"Cup {i}", **changes)
        response = client.post(reverse("tournaments:tournament_new"), data, **EN)
        errors = re.findall(r"error[^>]*>[^<]+", response.content.decode())
        assert response.status_code == 302, (i, errors)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (
            {"format": "double_elimination", "tie_breaks": ["progressive"]},
            "tie-breaks-not-applicable",
        ),
        ({"variant": "short", "draw_scoring": "one"}, "draw-scoring-not-applicable"),
        ({"variant": "lurc", "first_move": "lot"}, "first-move-not-applicable"),
    ],
)
def test_the_api_refuses_a_setting_the_game_or_format_lacks(
    body: dict[str, Any], code: str
) -> None:

    client = APIClient()
    client.force_authenticate(User.objects.create_superuser("api", password="a-long-secret-1"))
    data = {"name": "Open", "start_date": "2026-12-01"} | body
    response = client.post("/api/tournaments/", data, format="json", HTTP_ACCEPT_LANGUAGE="cs")
    assert response.status_code == 400, response.content
    assert code in response.content.decode()
    assert not Tournament.objects.exists()


# finding 5 (rest): English words on Czech pages, Czech numbers, the export's language


def test_the_board_says_pips_in_czech_and_the_export_stays_in_the_formats_words() -> None:
    """The word between the board's pip counts is translated; the .nrd export of a game
    without a record is the same file in every language (English, the format's words)."""
    _t, series, boss = _event("long")
    adam, bara = _players(series)
    boss.post(
        reverse("tournaments:enter_record", args=[series.pk]),
        {"number": "1", "record": a_record(adam.name, bara.name, seed=5)},
    )
    game = series.games.get()
    page = boss.get(reverse("tournaments:game", args=[game.pk]), **CS).content.decode()
    assert 'class="pips-label">pipy</text>' in page
    english = boss.get(reverse("tournaments:game", args=[game.pk]), **EN).content.decode()
    assert 'class="pips-label">pips</text>' in english
    series.refresh_from_db()
    nxt = series.games.get().winner
    loser = bara if nxt == adam else adam
    quick = game_enter_quick(series=series, white=loser, winner=loser, kind="oin",
                             ended="resigned")  # fmt: skip
    url = f"/api/games/{quick.pk}/record.nrd"
    files = [Client().get(url, **h).content.decode() for h in (CS, EN)]
    assert files[0] == files[1]
    assert "{result entered without a record, resigned}" in files[0]


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_the_admin_names_rating_changes_in_the_readers_language(lang: str) -> None:
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", password="a-long-secret-1"))
    _t, series, _boss = _event("long", rated=True)
    adam, bara = _players(series)
    game_enter_quick(series=series, white=adam, winner=adam, kind="mars")
    game_enter_quick(series=series, white=bara, winner=adam, kind="mars")
    url = reverse("admin:tournaments_ratingchange_changelist")
    page = admin.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    words = {
        "cs": ("změny ratingu", "Rating před", "Rating po", "Zkušenost před"),
        "en": ("rating changes", "Rating before", "Rating after", "Experience before"),
    }[lang]
    for word in words:
        assert word in page, word
    if lang == "cs":
        assert "rating change" not in page.lower().replace("změn", "")


def test_the_dice_verdict_writes_numbers_as_the_table_beside_it() -> None:
    """Czech pages use the decimal comma in the verdict's sentence as in its table."""
    _t, series, boss = _event("long")
    adam, bara = _players(series)
    boss.post(
        reverse("tournaments:enter_record", args=[series.pk]),
        {"number": "1", "record": a_record(adam.name, bara.name, seed=5)},
    )
    cs = Client().get(reverse("tournaments:player", args=[adam.pk]), **CS).content.decode()
    assert re.search(r"p = [01],\d{3}", cs) and re.search(r"\d+,\d %", cs)
    assert not re.search(r"p = [01]\.\d", cs) and re.search(r"<td>[01],\d{3}</td>", cs)
    en = Client().get(reverse("tournaments:player", args=[adam.pk]), **EN).content.decode()
    assert re.search(r"p = [01]\.\d{3}", en)
