"""A director deletes a game entered by mistake through every door - the page, the API,
the admin - by one service (services/deletion.py ``game_delete``): only the series' last
game may go, with its record, corrections, submitted results and analysis; the series'
score and status follow (a finished series is open again), the ratings are as if the game
had never been entered, and an audit row says who deleted which game, when and why. A
series whose result later rounds (or the bracket) used asks for a confirmation first."""

from __future__ import annotations

import html
import random
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from django.utils import translation

from tests.tournaments.helpers import EN, World, rating_of
from tournaments.models import (
    Correction,
    Deletion,
    Game,
    Player,
    RatingChange,
    Round,
    Series,
    SeriesStatus,
    Submission,
)
from tournaments.models.deletion import REASON_MAX
from tournaments.selectors.brackets import bracket_of
from tournaments.services.deletion import game_delete
from tournaments.services.directing import NeedsConfirmation
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.pairings import bracket_create
from tournaments.services.ratings import ratings_recompute
from tournaments.services.results import game_enter_quick
from tournaments.services.series import series_next_white
from tournaments.services.setup import entry_register, tournament_create

pytestmark = pytest.mark.django_db
CS: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "cs"}
NOT_LAST_CS = "smazat lze jen poslední hru série"
NOT_LAST_EN = "only the last game of a series can be deleted"
NO_REASON_CS = "Napište, proč se maže."
NO_REASON_EN = "Say why it is deleted."

Ratings = dict[int, tuple[float, int, int]]


def _ratings() -> Ratings:
    """Each player's long nardy rating (the tournaments here are long nardy), experience
    and history rows."""
    ratings = {}
    for p in Player.objects.order_by("pk"):
        r = rating_of(p)
        ratings[p.pk] = (
            round(r.rating, 6),
            r.experience,
            RatingChange.objects.filter(player=p).count(),
        )
    return ratings


def _games(series: Series) -> list[Game]:
    return list(Game.objects.filter(series=series).order_by("number"))


def _last(series: Series) -> Game:
    return _games(series)[-1]


def _client(world: World, role: str | None, headers: dict[str, Any] = CS) -> Client:
    client = Client(**headers)
    if role is not None:
        client.force_login(world.users[role])
    return client


def _kept(series: Series, count: int) -> None:
    assert len(_games(series)) == count
    assert not Deletion.objects.exists()


def _later_round(world: World) -> Series:
    """Round 2 paired on round 1's results: Jana - Eva."""
    rnd = Round.objects.create(tournament=world.tournament, number=2)
    p = world.players
    return Series.objects.create(tournament=world.tournament, round=rnd, table=1,
                                 player1=p["jana"], player2=p["eva"])  # fmt: skip


# --- the service ---


def test_the_last_game_goes_and_the_series_and_ratings_follow(played: World):
    series = played.series
    series.refresh_from_db()
    games = _games(series)
    last = games[-1]
    jana, petr = played.players["jana"], played.players["petr"]
    others = {pk: v for pk, v in _ratings().items() if pk not in (jana.pk, petr.pk)}
    assert series.status == SeriesStatus.FINISHED and RatingChange.objects.filter(series=series)
    with translation.override("en"):
        deletion = game_delete(game=last, by=played.users["boss"], reason=" entered twice ")
    series.refresh_from_db()
    assert (series.status, series.winner_id, series.finished_at) == ("in_play", None, None)
    assert [g.pk for g in _games(series)] == [g.pk for g in games[:-1]]
    one = sum(g.value for g in games[:-1] if g.winner_id == series.player1_id)
    two = sum(g.value for g in games[:-1] if g.winner_id == series.player2_id)
    assert (series.score1, series.score2) == (one, two)
    # the ratings: as if the game had never been entered - the only rated series of Jana
    # and Petr is open again, so they are back where they started, the others unchanged
    after = _ratings()
    for player in (jana, petr):
        player.refresh_from_db()
        assert after[player.pk] == (round(rating_of(player).start_rating, 6), 0, 0)
    assert {pk: v for pk, v in after.items() if pk in others} == others
    ratings_recompute()  # from scratch, on what is stored now
    assert _ratings() == after
    # the audit row
    assert (deletion.kind, deletion.object_id) == ("game", last.pk)
    assert deletion.reason == "entered twice"
    assert deletion.label == f"Game {last.number} of Jana - Petr, round 1 (Přebor)"
    assert deletion.by == played.users["boss"] and deletion.by_name == "boss"
    assert deletion.summary["record"] == last.record and deletion.summary["reopened"] is True
    assert deletion.summary["score_after"] == f"{one}:{two}"


def test_games_go_one_by_one_from_the_end_with_corrections_and_submissions(played: World):
    series = played.other_series
    first = _games(series)[0]
    assert Correction.objects.filter(game=first).count() == 1
    assert Submission.objects.filter(series=series, number=1).count() == 1  # rejected
    while len(games := _games(series)) > 1:
        game_delete(game=games[-1], by=played.users["boss"], reason="all wrong")
    deletion = game_delete(game=first, by=played.users["boss"], reason="all wrong")
    assert deletion.summary["corrections"] == 1 and deletion.summary["submissions"] == 1
    assert not Correction.objects.exists()
    assert not Submission.objects.filter(series=series).exists()
    series.refresh_from_db()
    assert (series.status, series.score1, series.score2) == ("scheduled", 0, 0)
    assert Deletion.objects.filter(kind="game").count() > 1


@pytest.mark.parametrize(("lang", "said"), [("cs", NOT_LAST_CS), ("en", NOT_LAST_EN)])
def test_a_game_before_the_last_is_refused(played: World, lang: str, said: str):
    games = _games(played.series)
    with translation.override(lang), pytest.raises(ApplicationError) as refused:
        game_delete(game=games[0], by=played.users["boss"], reason="mistake")
    assert refused.value.code == "game-delete-not-last"
    assert said in refused.value.message
    _kept(played.series, len(games))


@pytest.mark.parametrize("role", ["jana", "otherboss", None])
def test_others_may_not_delete_a_game(played: World, role: str | None):
    by = played.users[role] if role else AnonymousUser()
    count = len(_games(played.series))
    with translation.override("cs"), pytest.raises(PermissionDenied) as refused:
        game_delete(game=_last(played.series), by=by, reason="mine")
    assert refused.value.code == "not-director-game-delete"
    assert refused.value.message == "hru smějí smazat jen ředitelé turnaje"
    _kept(played.series, count)


def test_a_superuser_may(played: World):
    root = User.objects.create_superuser("root", password="pw-root")
    game_delete(game=_last(played.series), by=root, reason="typo")
    assert Deletion.objects.get().by_name == "root"


@pytest.mark.parametrize(
    ("reason", "code"),
    [("", "deletion-reason"), (" \n\t", "deletion-reason"), (None, "deletion-reason"),
     ("x" * 501, "deletion-reason-long"), ("a\x00b", "deletion-reason-nul")],
)  # fmt: skip
def test_a_bad_reason_deletes_nothing(played: World, reason: Any, code: str):
    count = len(_games(played.series))
    with pytest.raises(ApplicationError) as refused:
        game_delete(game=_last(played.series), by=played.users["boss"], reason=reason)
    assert (refused.value.code, refused.value.field) == (code, "reason")
    _kept(played.series, count)


def test_a_result_later_rounds_were_paired_on_needs_a_confirmation(played: World):
    later = _later_round(played)
    count = len(_games(played.series))
    with translation.override("en"), pytest.raises(NeedsConfirmation) as asked:
        game_delete(game=_last(played.series), by=played.users["boss"], reason="mistake")
    assert asked.value.code == "game-delete-confirm"
    assert any("Round 2 was paired on the old result" in w for w in asked.value.warnings)
    assert any(str(later) in w for w in asked.value.warnings)
    _kept(played.series, count)
    game_delete(game=_last(played.series), by=played.users["boss"], reason="mistake",
                confirmed=True)  # fmt: skip
    assert len(_games(played.series)) == count - 1
    assert Series.objects.filter(pk=later.pk).exists()  # the pairing stays


# --- a bracket ---


def _play(series: Series, rng: random.Random) -> None:
    while series.status != "finished":
        white = series_next_white(series, _games(series)) or series.player1
        winner = rng.choice([series.player1, series.player2])
        game_enter_quick(series=series, white=white, winner=winner, kind="oin")
        series.refresh_from_db()


@pytest.fixture
def bracket(world: World) -> tuple[Series, Series]:
    """A knockout of four: both semi-finals played, the final paired, not started."""
    t = tournament_create(name="Pohár", start_date="2026-12-01", format="single_elimination",
                          series_length=1)  # fmt: skip
    t.directors.add(world.users["boss"])
    for p in world.players.values():
        entry_register(tournament=t, player=p)
    bracket_create(tournament=t)
    rng = random.Random(3)
    semis = list(Series.objects.filter(tournament=t).order_by("slot"))
    for s in semis:
        _play(s, rng)
    final = Series.objects.get(tournament=t, slot=bracket_of(t).finals[0])
    return semis[0], final


def test_a_bracket_result_taken_back_takes_the_next_series_back(world: World, bracket):
    semi, final = bracket
    with translation.override("en"), pytest.raises(NeedsConfirmation) as asked:
        game_delete(game=_last(semi), by=world.users["boss"], reason="wrong table")
    assert any("next series" in w and str(final) in w for w in asked.value.warnings)
    game_delete(game=_last(semi), by=world.users["boss"], reason="wrong table", confirmed=True)
    semi.refresh_from_db()
    assert semi.status == "scheduled" and not Series.objects.filter(pk=final.pk).exists()
    _play(semi, random.Random(9))  # decided again: the final is paired again
    assert Series.objects.filter(tournament=semi.tournament, slot=final.slot).exists()


def test_a_bracket_result_whose_next_series_has_games_is_refused(world: World, bracket):
    semi, final = bracket
    assert final.player1 is not None
    game_enter_quick(series=final, white=final.player1, winner=final.player1, kind="oin")
    with translation.override("cs"), pytest.raises(ApplicationError) as refused:
        game_delete(game=_last(semi), by=world.users["boss"], reason="x", confirmed=True)
    assert refused.value.code == "game-delete-bracket-started"
    assert "v pavouku" in refused.value.message
    assert len(_games(semi)) == 1


# --- the page ---


def test_the_game_page_links_to_the_deletion_for_its_directors_only(played: World):
    game = _last(played.series)
    link = f'href="/games/{game.pk}/delete/"'
    assert link in _client(played, "boss", EN).get(f"/games/{game.pk}/").content.decode()
    for role in ("jana", "otherboss", None):
        assert link not in _client(played, role).get(f"/games/{game.pk}/").content.decode()


@pytest.mark.parametrize("headers", [CS, EN], ids=["cs", "en"])
def test_the_confirmation_names_what_goes(played: World, headers: dict[str, Any]):
    series = played.other_series
    while len(games := _games(series)) > 1:
        game_delete(game=games[-1], by=played.users["boss"], reason="x")
    Deletion.objects.all().delete()
    page = _client(played, "boss", headers).get(f"/games/{games[0].pk}/delete/")
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    said = (["1 oprava", "1 odeslaný výsledek", "Skóre série: před 0:2 (hraje se), po 0:0 "
             "(naplánováno)."] if headers is CS
            else ["1 correction", "1 submitted result", "The series' score: 0:2 (in play) "
                  "before, 0:0 (scheduled) after."])  # fmt: skip
    for words in said:
        assert words in text
    assert 'name="reason"' in text and 'name="confirmed"' not in text  # no warnings
    _kept(series, 1)


def test_the_page_deletes_it_and_goes_back_to_the_series(played: World):
    client = _client(played, "boss", EN)
    game = _last(played.series)
    answer = client.post(f"/games/{game.pk}/delete/", {"reason": "entered twice"})
    assert answer.status_code == 302 and answer["Location"] == f"/series/{played.series.pk}/"
    page = client.get(answer["Location"]).content.decode()
    assert f"Game {game.number} of Jana - Petr, round 1 (Přebor) is deleted." in page
    assert not Game.objects.filter(pk=game.pk).exists()
    assert Deletion.objects.get().reason == "entered twice"
    assert client.get(f"/games/{game.pk}/delete/").status_code == 404


@pytest.mark.parametrize("headers", [CS, EN], ids=["cs", "en"])
@pytest.mark.parametrize(
    ("data", "said_cs", "said_en"),
    [({}, NO_REASON_CS, NO_REASON_EN),
     ({"reason": " \n "}, NO_REASON_CS, NO_REASON_EN),
     ({"reason": "x" * 5000}, "nejvýše 500 znaků", "at most 500"),
     ({"reason": "a\x00b"}, "Nulové znaky", "Null characters")],
)  # fmt: skip
def test_the_page_refuses_a_bad_reason_in_the_users_language(
    played: World, headers: dict[str, Any], data: dict[str, str], said_cs: str, said_en: str
):
    count = len(_games(played.series))
    url = f"/games/{_last(played.series).pk}/delete/"
    answer = _client(played, "boss", headers).post(url, data)
    assert answer.status_code == 400
    assert (said_cs if headers is CS else said_en) in answer.content.decode()
    _kept(played.series, count)


def test_control_characters_in_a_reason_are_kept_as_text(played: World):
    url = f"/games/{_last(played.series).pk}/delete/"
    answer = _client(played, "boss").post(url, {"reason": "bell\x07 <b>esc\x1b[31m"})
    assert answer.status_code == 302
    assert Deletion.objects.get().reason == "bell\x07 <b>esc\x1b[31m"


@pytest.mark.parametrize("headers", [CS, EN], ids=["cs", "en"])
def test_the_page_says_why_an_earlier_game_cannot_go(played: World, headers: dict[str, Any]):
    first = _games(played.series)[0]
    client = _client(played, "boss", headers)
    said = NOT_LAST_CS if headers is CS else NOT_LAST_EN
    page = client.get(f"/games/{first.pk}/delete/")
    assert page.status_code == 200 and said in page.content.decode()
    assert 'name="reason"' not in page.content.decode()
    answer = client.post(f"/games/{first.pk}/delete/", {"reason": "mistake"})
    assert answer.status_code == 400 and said in answer.content.decode()
    assert Game.objects.filter(pk=first.pk).exists()


@pytest.mark.parametrize("headers", [CS, EN], ids=["cs", "en"])
def test_the_page_asks_to_confirm_after_its_warnings(played: World, headers: dict[str, Any]):
    _later_round(played)
    client = _client(played, "boss", headers)
    url = f"/games/{_last(played.series).pk}/delete/"
    page = client.get(url).content.decode()
    assert 'name="confirmed"' in page
    assert ("2. kolo bylo nalosováno" if headers is CS else "Round 2 was paired") in page
    count = len(_games(played.series))
    answer = client.post(url, {"reason": "mistake"})
    assert answer.status_code == 400
    said = "potvrďte smazání" if headers is CS else "confirm the deletion"
    assert said in answer.content.decode()
    _kept(played.series, count)
    answer = client.post(url, {"reason": "mistake", "confirmed": "on"})
    assert answer.status_code == 302
    assert len(_games(played.series)) == count - 1


@pytest.mark.parametrize("role", ["jana", "otherboss"])
def test_the_page_is_for_the_directors(played: World, role: str):
    count = len(_games(played.series))
    url = f"/games/{_last(played.series).pk}/delete/"
    client = _client(played, role)
    assert client.get(url).status_code == 403
    assert client.post(url, {"reason": "mine"}).status_code == 403
    answer = _client(played, None).post(url, {"reason": "mine"})
    assert answer.status_code == 302 and "/login/" in answer["Location"]
    _kept(played.series, count)
    assert _client(played, "boss").get("/games/999999/delete/").status_code == 404


# --- the API ---


def test_the_api_deletes_it_with_a_reason(played: World):
    api = played.client("boss")
    game = _last(played.series)
    answer = api.delete(f"/api/games/{game.pk}/", {"reason": "entered twice"}, format="json")
    assert answer.status_code == 204, answer.content
    assert not Game.objects.filter(pk=game.pk).exists()
    assert Deletion.objects.get().by_name == "boss"
    again = api.delete(f"/api/games/{game.pk}/", {"reason": "again"}, format="json")
    assert again.status_code == 404


@pytest.mark.parametrize(
    ("body", "code", "lang", "said"),
    [(None, "deletion-reason", "cs", NO_REASON_CS),
     ({"reason": ""}, "deletion-reason", "en", NO_REASON_EN),
     ({"reason": "x" * 5000}, "deletion-reason-long", "en", "at most 500"),
     ({"reason": ["x"]}, "invalid", "en", "reason"),
     ({"reason": "a\x00b"}, "null_characters_not_allowed", "en", "reason"),
     ({"reason": "x", "confirm": "perhaps"}, "invalid", "en", "confirm")],
)  # fmt: skip
def test_the_api_refuses_a_bad_body(played: World, body, code: str, lang: str, said: str):
    count = len(_games(played.series))
    kwargs: dict[str, Any] = {"format": "json"} if body is not None else {}
    answer = played.client("boss").delete(
        f"/api/games/{_last(played.series).pk}/", body, HTTP_ACCEPT_LANGUAGE=lang, **kwargs
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == code and said in answer.json()["detail"]
    _kept(played.series, count)


@pytest.mark.parametrize(("lang", "said"), [("cs", NOT_LAST_CS), ("en", NOT_LAST_EN)])
def test_the_api_refuses_an_earlier_game_with_its_code(played: World, lang: str, said: str):
    first = _games(played.series)[0]
    answer = played.client("boss").delete(
        f"/api/games/{first.pk}/", {"reason": "x"}, format="json", HTTP_ACCEPT_LANGUAGE=lang
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "game-delete-not-last" and said in answer.json()["detail"]


def test_the_api_asks_to_confirm_with_the_warnings(played: World):
    _later_round(played)
    api = played.client("boss")
    url = f"/api/games/{_last(played.series).pk}/"
    answer = api.delete(url, {"reason": "x"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "game-delete-confirm" and "Round 2" in body["warnings"][0]
    assert api.delete(url, {"reason": "x", "confirm": True}, format="json").status_code == 204


@pytest.mark.parametrize("role", ["jana", "otherboss", None])
def test_the_api_refuses_others(played: World, role: str | None):
    count = len(_games(played.series))
    answer = played.client(role).delete(
        f"/api/games/{_last(played.series).pk}/", {"reason": "mine"}, format="json"
    )
    assert answer.status_code == 403
    _kept(played.series, count)


# --- the admin ---


@pytest.fixture
def superuser(played: World) -> Client:
    played.users["root"] = User.objects.create_superuser("root", password="pw-root")
    return _client(played, "root", EN)


def test_the_admin_deletes_a_game_through_the_service(played: World, superuser: Client):
    game = _last(played.series)
    count = len(_games(played.series))
    url = f"/admin/tournaments/game/{game.pk}/delete/"
    page = superuser.get(url)
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert "protected" not in text and "permission to delete" not in text
    assert 'name="reason"' in text and "The series' score" in text
    assert f'maxlength="{REASON_MAX}"' in text  # as long as the service takes
    answer = superuser.post(url, {"post": "yes", "reason": " "})  # no reason: asked again
    assert answer.status_code == 302 and answer["Location"] == url
    _kept(played.series, count)
    answer = superuser.post(url, {"post": "yes", "reason": "entered twice"})
    assert answer.status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()
    deletion = Deletion.objects.get()
    assert (deletion.kind, deletion.by_name, deletion.reason) == ("game", "root", "entered twice")
    played.series.refresh_from_db()
    assert played.series.status == "in_play"


def test_the_admin_refuses_an_earlier_game(played: World, superuser: Client):
    first = _games(played.series)[0]
    url = f"/admin/tournaments/game/{first.pk}/delete/"
    assert NOT_LAST_EN in superuser.get(url).content.decode()
    answer = superuser.post(url, {"post": "yes", "reason": "mistake"})
    assert answer.status_code == 302 and answer["Location"] == url
    assert Game.objects.filter(pk=first.pk).exists()
    answer = superuser.post(
        "/admin/tournaments/game/",
        {"action": "delete_selected", "_selected_action": [first.pk], "post": "yes"},
    )
    assert answer.status_code in (200, 302) and Game.objects.filter(pk=first.pk).exists()
