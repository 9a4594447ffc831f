"""One set of result rules, from the engine to every door. Each
finding is tested through the page where it was found; the doors must agree (RULES S2,
S6, S7, L8, L10, L12, Z1, Z11)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import EN
from tournaments.models import Game, Player, Series, Submission, Tournament
from tournaments.services import results as results_service
from tournaments.services.errors import ApplicationError
from tournaments.services.result_rules import result_rules
from tournaments.services.results import game_enter_quick, game_enter_record

pytestmark = pytest.mark.django_db

CRAWFORD_DOUBLE = (
    '[Variant "short"]\n[White "Petr"]\n[Black "Jana"]\n\n'
    "1. 31: 8/5 6/5 double take 21: 13/11 6/5\n2. double drop\n"
)
NO_DOUBLE = (
    '[Variant "short"]\n[White "Petr"]\n[Black "Jana"]\n\n'
    "1. 31: 8/5 6/5 21: 13/11 6/5\n2. W resigns\n"
)
OPENING_DOUBLE = (
    '[Variant "short"]\n[White "Jana"]\n[Black "Petr"]\n\n1. 66: 24/18(2) 13/7(2) B resigns\n'
)


def tournament(**settings: Any) -> Tournament:
    return Tournament.objects.create(name="Cup", start_date=datetime.date(2026, 11, 1), **settings)


def pair(t: Tournament) -> tuple[Series, Player, Player]:
    jana = Player.objects.create(name="Jana")
    petr = Player.objects.create(name="Petr")
    return Series.objects.create(tournament=t, player1=jana, player2=petr), jana, petr


@pytest.fixture
def boss(client: Client) -> User:
    user = User.objects.create_superuser("boss", password="a-long-secret-1")
    client.force_login(user)
    return user


def quick(client: Client, s: Series, **data: Any) -> Any:
    return client.post(reverse("tournaments:enter_quick", args=[s.pk]), data, **EN)


def check(client: Client, s: Series, record: str, number: int | None = None) -> dict[str, Any]:
    data = {"record": record} | ({"number": number} if number else {})
    response = client.post(reverse("tournaments:record_check", args=[s.pk]), data, **EN)
    assert response.status_code == 200
    return response.json()


def crawford_series() -> tuple[Series, Player, Player]:
    """Short backgammon with the cube, a series to 5: Jana on 4 after two mars."""
    s, jana, petr = pair(tournament(variant="short", cube=True, series_length=5))
    game_enter_quick(series=s, white=jana, winner=jana, kind="mars")
    game_enter_quick(series=s, white=petr, winner=jana, kind="mars")
    return s, jana, petr


# finding 1: quick entry and the Crawford game ------------------------------------


def test_quick_entry_refuses_a_cube_in_the_crawford_game_s7(client, boss):
    """S7: Jana on 4 of 5: game 3 is the Crawford game; cube 2 (score 2:6) is refused
    on the quick-entry page as the same double in a record is."""
    s, _jana, petr = crawford_series()
    response = quick(client, s, number=3, white=petr.pk, winner=petr.pk, kind="oin",
                     ended="played", cube=2)  # fmt: skip
    assert response.status_code == 400
    assert "Crawford game" in response.content.decode()
    assert Game.objects.filter(series=s).count() == 2
    # the form does not offer the cube in the Crawford game
    page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
    assert 'type="hidden" name="cube"' in page and 'value="dropped"' not in page


# finding 2 and 3: Lurč scores 1 point a win; black starts ---------------------------


def test_lurc_quick_entry_refuses_mars_z11(client, boss):
    s, jana, petr = pair(tournament(variant="lurc"))
    response = quick(client, s, number=1, black=jana.pk, winner=jana.pk, kind="mars",
                     ended="played")  # fmt: skip
    assert response.status_code == 400
    assert not Game.objects.filter(series=s).exists()
    with pytest.raises(ApplicationError, match="Z11"):
        game_enter_quick(series=s, white=petr, winner=jana, kind="mars")
    page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
    assert 'value="mars"' not in page and "win (1 point)" in page


def test_lurc_starter_takes_black_z1_l12(client, boss):
    """L12 as amended: the loser of game 1 starts game 2 with black (Z1: black first)."""
    s, jana, petr = pair(tournament(variant="lurc", series_length=3, series_mode="games"))
    assert quick(client, s, number=1, black=jana.pk, winner=jana.pk, kind="oin",
                 ended="played").status_code == 302  # fmt: skip
    first = Game.objects.get(series=s, number=1)
    assert (first.black, first.white) == (jana, petr)
    page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
    assert "Black (started the game)" in page
    # Petr lost: he starts game 2, so he has black; giving him white is refused
    with pytest.raises(ApplicationError, match="Petr starts game 2 and has black"):
        game_enter_quick(series=s, white=petr, winner=petr, kind="oin")
    assert quick(client, s, number=2, black=petr.pk, winner=petr.pk, kind="oin",
                 ended="played").status_code == 302  # fmt: skip
    second = Game.objects.get(series=s, number=2)
    assert (second.black, second.white) == (petr, jana)


# finding 6: the live check is the saving check --------------------------------------


@pytest.mark.parametrize(
    ("case", "needle"),
    [
        ("names", "is not a player of this series"),
        ("series", "belongs to another series"),
        ("crawford", "Crawford game"),
    ],
)
def test_live_check_says_what_saving_says(client, boss, case, needle):
    s, _jana, _petr = crawford_series()
    record = {
        "names": NO_DOUBLE.replace("Petr", "Karel"),
        "series": '[Series "999999"]\n' + NO_DOUBLE,
        "crawford": CRAWFORD_DOUBLE,
    }[case]
    verdict = check(client, s, record, 3)
    saved = client.post(reverse("tournaments:enter_record", args=[s.pk]),
                        {"record": record, "number": 3}, **EN)  # fmt: skip
    assert verdict["ok"] is False and needle in verdict["message"]
    assert saved.status_code == 400 and needle in saved.content.decode()


def test_a_submission_cannot_pass_what_the_confirmation_refuses(client):
    """A player's record with a double in the Crawford game is refused at submission
    (before, it passed and the confirmation refused it: match tags were not passed)."""
    s, _jana, petr = crawford_series()
    petr.user = User.objects.create_user("petr", password="a-long-secret-1")
    petr.save()
    client.force_login(petr.user)
    response = client.post(reverse("tournaments:enter_record", args=[s.pk]),
                           {"record": CRAWFORD_DOUBLE, "number": 3}, **EN)  # fmt: skip
    assert response.status_code == 400 and "Crawford game" in response.content.decode()
    assert not Submission.objects.exists()


# finding 7: the opening roll is a tournament setting ----------------------------------


@pytest.mark.parametrize(("opening", "status"), [("fresh", 302), ("lot", 400)])
def test_short_series_take_the_opening_roll_setting_s2(client, boss, opening, status):
    s, _jana, _petr = pair(tournament(variant="short", opening_roll=opening))
    response = client.post(reverse("tournaments:enter_record", args=[s.pk]),
                           {"record": OPENING_DOUBLE, "number": 1}, **EN)  # fmt: skip
    assert response.status_code == status
    if status == 302:
        assert '[OpeningRoll "fresh"]' in Game.objects.get(series=s).record
    else:
        assert "cannot be a double" in response.content.decode()


def test_the_tournament_form_offers_the_rules_of_its_game(client, boss):
    short = tournament(variant="short")
    page = client.get(reverse("tournaments:tournament_edit", args=[short.pk]), **EN)
    html = page.content.decode()
    assert '<select name="opening_roll"' in html and 'type="checkbox" name="cube"' in html
    assert '<select name="block_check"' not in html
    long = tournament(variant="long")
    html = client.get(reverse("tournaments:tournament_edit", args=[long.pk]), **EN).content.decode()
    assert '<select name="opening_roll"' not in html and 'type="checkbox" name="cube"' not in html


# finding 9: forms offer only what the rules allow -----------------------------------


def test_long_nardy_form_offers_no_koks_and_no_draw_and_its_default_saves_l10(client, boss):
    s, jana, _petr = pair(tournament(variant="long"))
    page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
    assert 'value="koks"' not in page and 'value="draw"' not in page
    assert "nobody (a draw)" not in page
    # the form's defaults, posted unchanged, are a valid result
    form = result_rules(series=s, games=[])
    assert form.kinds == ("oin", "mars")
    response = quick(client, s, number=1, white=jana.pk, winner=jana.pk, kind="oin",
                     ended="played", cube=1)  # fmt: skip
    assert response.status_code == 302


def test_the_quick_form_default_with_last_roll_is_not_a_draw_error(client, boss):
    """Before: winner "nobody" and result "oin" by default - an error when saved."""
    s, jana, _petr = pair(tournament(variant="long", last_roll=True))
    page = client.get(reverse("tournaments:series", args=[s.pk]), **EN).content.decode()
    assert f'<option value="{jana.pk}" selected>' in page.split('name="winner"')[1]
    assert 'value="draw"' in page


def test_short_backgammon_rules_summary_lists_no_block_rule(client, boss):
    t = tournament(variant="short")
    html = client.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    assert "six-point block" not in html and "koks" in html


# hostile numbers (docs/deploy.md); the record is verified before the lock ------------------


@pytest.mark.parametrize("number", ["-1", "0", "99999999999"])
def test_quick_entry_with_a_bad_number_is_a_form_error(client, boss, number):
    s, jana, _petr = pair(tournament())
    response = quick(client, s, number=number, white=jana.pk, winner=jana.pk, kind="oin",
                     ended="played", cube=1)  # fmt: skip
    assert response.status_code == 400
    with pytest.raises(ApplicationError):
        game_enter_quick(series=s, white=jana, winner=jana, kind="oin", number=int(number))


def test_the_record_is_replayed_before_the_series_is_locked(monkeypatch):
    s, _jana, _petr = pair(tournament(variant="short", cube=True))
    events: list[str] = []
    real_check, real_lock = results_service.check_record, results_service._locked_series  # type: ignore[attr-defined]

    def spy_check(*args: Any, **kwargs: Any) -> Any:
        events.append("replay")
        return real_check(*args, **kwargs)

    def spy_lock(series: Series) -> Any:
        events.append("lock")
        return real_lock(series)

    monkeypatch.setattr(results_service, "check_record", spy_check)
    monkeypatch.setattr(results_service, "_locked_series", spy_lock)
    game_enter_record(series=s, record=CRAWFORD_DOUBLE.replace("Petr", "X").replace(
        "Jana", "Petr").replace("X", "Jana"))  # fmt: skip
    assert events == ["replay", "lock"]  # unchanged under the lock: no second replay


def test_a_game_entered_meanwhile_is_caught_under_the_lock(monkeypatch):
    """The series changed between the replay and the lock: the check runs again and
    refuses the record for a game number already taken."""
    s, _jana, petr = pair(tournament(variant="short"))
    real_check = results_service.check_record  # type: ignore[attr-defined]
    record = '[Variant "short"]\n[White "Jana"]\n[Black "Petr"]\n\n1. 31: 8/5 6/5 B resigns\n'

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        if not Game.objects.filter(series=s).exists():
            game_enter_quick(series=s, white=petr, winner=petr, kind="oin", number=1)
        return real_check(*args, **kwargs)

    monkeypatch.setattr(results_service, "check_record", meanwhile)
    with pytest.raises(ApplicationError, match="already entered"):
        game_enter_record(series=s, record=record, number=1)  # not an IntegrityError


# a winner chosen with "draw" is a contradiction, refused by every door ----


def test_quick_entry_refuses_a_winner_with_a_draw_and_stores_nothing(client, boss):
    """Before: the winner was dropped and the game stored as a draw (L10)."""
    s, jana, _petr = pair(tournament(variant="long", last_roll=True))
    response = quick(client, s, number=1, white=jana.pk, winner=jana.pk, kind="draw",
                     ended="played", cube=1)  # fmt: skip
    assert response.status_code == 400
    assert "a draw has no winner, and any other result has one" in response.content.decode()
    assert not Game.objects.exists()
    # the same page in Czech
    cs = client.post(reverse("tournaments:enter_quick", args=[s.pk]), {
        "number": 1, "white": jana.pk, "winner": jana.pk, "kind": "draw", "ended": "played",
        "cube": 1,
    }, HTTP_ACCEPT_LANGUAGE="cs")  # fmt: skip
    assert cs.status_code == 400
    assert "Remíza nemá vítěze, každý jiný výsledek ho má." in cs.content.decode()
    # the draw with "nobody" is the way to enter it, and the reverse stays refused
    ok = quick(client, s, number=1, white=jana.pk, winner="", kind="draw", ended="played", cube=1)
    assert ok.status_code == 302
    game = Game.objects.get()
    assert game.kind == "draw" and game.winner is None
    no_winner = quick(client, s, number=2, white=jana.pk, winner="", kind="oin", ended="played",
                      cube=1)  # fmt: skip
    assert no_winner.status_code == 400 and Game.objects.count() == 1


def test_a_players_submission_with_a_winner_and_a_draw_is_refused(client):
    s, jana, _petr = pair(tournament(variant="long", last_roll=True, published=True))
    jana.user = User.objects.create_user("jana", password="a-long-secret-2")
    jana.save()
    client.force_login(jana.user)
    response = quick(client, s, number=1, white=jana.pk, winner=jana.pk, kind="draw",
                     ended="played", cube=1)  # fmt: skip
    assert response.status_code == 400 and not Submission.objects.exists()


def test_the_api_refuses_a_winner_with_a_draw(world):
    world.tournament.last_roll = True
    world.tournament.save()
    p, url = world.players, f"/api/series/{world.series.pk}/games/quick/"
    body = {"white": p["jana"].pk, "winner": p["jana"].pk, "kind": "draw", "number": 1}
    response = world.client("boss").post(url, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "draw-winner" and response.json()["field"] == "winner"
    assert not Game.objects.exists()
    drawn = world.client("boss").post(url, body | {"winner": None}, format="json")
    assert drawn.status_code == 201 and drawn.json()["winner"] is None
