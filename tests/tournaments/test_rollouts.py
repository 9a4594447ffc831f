"""Rollouts asked on a game's page (services/rollouts.py, docs/analysis.md): a player of
an analysed long-nardy game or a director asks for a turn to be rolled out, a job on the
analysis queue (inline here) rolls out the played play and the best ones on the same
dice, and the page shows each play's equity with its standard error, the games and the
seed, in English and Czech; the page polls the progress of those on their way. Hostile
turn and games parameters are refused with 400, never 500, and a user has at most
ROLLOUTS_QUEUED_PER_USER rollouts waiting. A finished game against the bot is rolled out
the same way, by its player only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine.evaluator.decision import game_decision, rollout_decision
from tests.tournaments.analysis_data import a_series, record_for
from tournaments.engine import bot_dice, bot_legal_turns, bot_state
from tournaments.jobs import job_run
from tournaments.models import Game, GameAnalysis, Job, JobKind, JobStatus
from tournaments.services.botgames import botgame_play, botgame_resign, botgame_start
from tournaments.services.rollouts import rollout_seed

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_rollouts(settings):
    settings.ROLLOUT_GAMES = (36, 72)
    settings.ROLLOUT_GAMES_MAX = 72
    settings.ROLLOUT_CANDIDATES = 2
    settings.ROLLOUT_TRUNCATE = 3  # a test's games stop early: seconds, not minutes


def analysed_game(django_capture_on_commit_callbacks, seed: int = 3) -> tuple[Game, User]:
    """A long-nardy game analysed by its job, and the account of its white player."""
    from tournaments.services.results import game_enter_record

    series = a_series()
    with django_capture_on_commit_callbacks(execute=True):
        game = game_enter_record(series=series, record=record_for(series, seed))
    assert GameAnalysis.objects.filter(game=game).exists()
    player = User.objects.create_user(username="iva", password="a-long-secret-1")
    game.white.user = player
    game.white.save()
    return Game.objects.select_related("white", "black", "series__tournament").get(
        pk=game.pk
    ), player


def a_decision(game: Game) -> int:
    """The analysis' index of the first turn with a choice."""
    return next(t["index"] for t in game.analysis.turns if not t["forced"])


def test_a_player_rolls_out_a_turn_and_the_page_shows_it(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    game, player = analysed_game(django_capture_on_commit_callbacks)
    turn = a_decision(game)
    client.force_login(player)
    url = reverse("tournaments:game", args=[game.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="rollout-turn"' in page and "Roll out the played play" in page
    response = client.post(reverse("tournaments:game_rollout", args=[game.pk]),
                           {"turn": turn, "games": 72})  # fmt: skip
    assert response.status_code == 302 and response["Location"].endswith("#rollouts")
    job = Job.objects.get(kind=JobKind.DECISION_ROLLOUT)
    assert job.status == JobStatus.DONE, job.error
    assert job.done == job.total == 2 * len(job.result["plays"])  # blocks of 36 games
    r = job.result
    assert r["games"] == 72 and r["seed"] == rollout_seed(game, turn) and r["turn"] == turn
    # the same rollout by the engine alone: the same seed gives the same figures
    decision = game_decision(game.record, turn, most=2)
    direct = rollout_decision(decision.position, decision.candidates, games=72,
                              seed=r["seed"], truncate=3, rules=decision.rules)  # fmt: skip
    assert [p["equity"] for p in r["plays"]] == [round(c.result.equity, 4) for c in direct]
    assert [p["moves"] for p in r["plays"]] == [c.moves for c in direct]
    assert sum(p["played"] for p in r["plays"]) == (decision.played is not None)
    assert all(p["games"] == 72 and p["se"] >= 0 for p in r["plays"])
    shown = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    first = r["plays"][0]
    assert "72 games a play, seed " + str(r["seed"]) in shown
    assert f"{first['equity_mp']:+d} ± {first['se_mp']}" in shown
    cs = client.get(url, HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "72 her na tah, semínko kostek " + str(r["seed"]) in cs and "Simulace (rollouty)" in cs
    # anyone who sees the game sees the result (a cached copy is renewed by it)
    client.logout()
    public = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"{first['equity_mp']:+d} ± {first['se_mp']}" in public
    assert 'id="rollout-turn"' not in public


def test_only_players_and_directors_may_ask(client: Client, django_capture_on_commit_callbacks):
    game, _player = analysed_game(django_capture_on_commit_callbacks)
    url = reverse("tournaments:game_rollout", args=[game.pk])
    data = {"turn": a_decision(game), "games": 36}
    assert client.post(url, data).status_code == 302  # to the login page
    client.force_login(User.objects.create_user(username="someone", password="a-long-secret-1"))
    assert client.post(url, data).status_code == 403
    page = client.get(reverse("tournaments:game", args=[game.pk])).content.decode()
    assert 'id="rollout-turn"' not in page
    client.force_login(game.series.tournament.directors.get())
    assert client.post(url, data).status_code == 302
    assert Job.objects.filter(kind=JobKind.DECISION_ROLLOUT, status=JobStatus.DONE).count() == 1


def test_waiting_rollouts_show_their_progress_and_are_limited(
    client: Client, settings, django_capture_on_commit_callbacks
) -> None:
    game, player = analysed_game(django_capture_on_commit_callbacks)
    settings.JOBS_INLINE = False  # the database's worker takes them: they wait
    settings.ROLLOUTS_QUEUED_PER_USER = 1
    client.force_login(player)
    url = reverse("tournaments:game_rollout", args=[game.pk])
    turns = [t["index"] for t in game.analysis.turns if not t["forced"]]
    assert client.post(url, {"turn": turns[0], "games": 36}).status_code == 302
    assert client.post(url, {"turn": turns[0], "games": 36}).status_code == 302  # the same one
    job = Job.objects.get(kind=JobKind.DECISION_ROLLOUT)
    refused = client.post(url, {"turn": turns[1], "games": 36}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 429
    assert "1 rollout waiting already" in refused.content.decode()
    assert Job.objects.filter(kind=JobKind.DECISION_ROLLOUT).count() == 1
    state = client.get(reverse("tournaments:game_rollouts", args=[game.pk])).json()
    assert state == {"done": 0, "waiting": [{"job": job.pk, "status": "queued", "done": 0,
                                             "total": None, "turn": turns[0]}]}  # fmt: skip
    page = client.get(reverse("tournaments:game", args=[game.pk])).content.decode()
    assert f'data-job="{job.pk}"' in page and "js/rollouts.js" in page
    assert job_run(job_id=job.pk) == JobStatus.DONE
    state = client.get(reverse("tournaments:game_rollouts", args=[game.pk])).json()
    assert state["done"] == 1 and state["waiting"] == []


def test_a_rollout_of_a_corrected_record_is_refused_and_not_shown(
    client: Client, settings, django_capture_on_commit_callbacks
) -> None:
    game, player = analysed_game(django_capture_on_commit_callbacks)
    settings.JOBS_INLINE = False
    client.force_login(player)
    client.post(reverse("tournaments:game_rollout", args=[game.pk]),
                {"turn": a_decision(game), "games": 36})  # fmt: skip
    job = Job.objects.get(kind=JobKind.DECISION_ROLLOUT)
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)  # as a correction does
    assert job_run(job_id=job.pk) == JobStatus.FAILED
    job.refresh_from_db()
    assert job.error_code == "rollout-game-changed"


@hsettings(max_examples=40, deadline=None,
           suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    turn=st.one_of(st.text(max_size=12), st.integers(-10**9, 10**9).map(str),
                   st.sampled_from(["", " 1", "1e3", "0x1", "\u0661", "²", "9" * 30, "-1"])),
    games=st.one_of(st.text(max_size=8), st.integers(-10**6, 10**7).map(str),
                    st.sampled_from(["36", "72", " 36 ", "1296", "0", "35"])),
)  # fmt: skip
def test_hostile_turns_and_games_are_refused_with_400(
    client: Client, django_capture_on_commit_callbacks, turn: str, games: str
) -> None:
    game = Game.objects.select_related("white", "series__tournament").first()
    if game is None:
        game, _player = analysed_game(django_capture_on_commit_callbacks)
    client.force_login(game.series.tournament.directors.get())
    decisions = {str(t["index"]) for t in game.analysis.turns if not t["forced"]}
    before = Job.objects.filter(kind=JobKind.DECISION_ROLLOUT).count()
    response = client.post(reverse("tournaments:game_rollout", args=[game.pk]),
                           {"turn": turn, "games": games}, HTTP_ACCEPT_LANGUAGE="cs")  # fmt: skip
    ok = turn.strip() in decisions and turn.strip().isascii() and games.strip() in ("36", "72")
    if ok:
        assert response.status_code == 302
    else:
        assert response.status_code == 400, (turn, games, response.status_code)
        assert Job.objects.filter(kind=JobKind.DECISION_ROLLOUT).count() == before


def test_lurc_games_have_no_rollouts(client: Client, django_capture_on_commit_callbacks):
    from tournaments.services.results import game_enter_record

    series = a_series("lurc")
    with django_capture_on_commit_callbacks(execute=True):
        game = game_enter_record(series=series, record=record_for(series, 8))
    client.force_login(series.tournament.directors.get())
    page = client.get(reverse("tournaments:game", args=[game.pk])).content.decode()
    assert 'id="rollouts"' not in page
    response = client.post(reverse("tournaments:game_rollout", args=[game.pk]),
                           {"turn": 0, "games": 36})  # fmt: skip
    assert response.status_code == 400 and not Job.objects.filter(kind="decision_rollout")


def test_a_player_rolls_out_a_turn_of_a_game_against_the_bot(client: Client) -> None:
    ann = User.objects.create_user("ann", password="a-long-secret-1")
    game = botgame_start(user=ann, level="beginner", colour="white")
    for _ in range(10):
        state = bot_state(game.record)
        turn = bot_legal_turns(state, bot_dice(game.seed, state.number))[0].notation
        game = botgame_play(game_id=game.pk, user=ann, version=game.version, turn=turn)
    game = botgame_resign(game_id=game.pk, user=ann, version=game.version)
    game.refresh_from_db()
    assert game.analysis and game.analysis["turns"]
    turn = next(t["index"] for t in game.analysis["turns"] if not t["forced"])
    url = reverse("tournaments:play_game", args=[game.pk])
    ask = reverse("tournaments:botgame_rollout", args=[game.pk])
    bob = User.objects.create_user("bob", password="a-long-secret-1")
    client.force_login(bob)  # another user's game: not found
    assert client.post(ask, {"turn": turn, "games": 36}).status_code == 404
    client.force_login(ann)
    assert 'id="rollout-turn"' in client.get(url).content.decode()
    assert client.post(ask, {"turn": "x", "games": 36}).status_code == 400
    response = client.post(ask, {"turn": turn, "games": 36})
    assert response.status_code == 302 and response["Location"].endswith("#rollouts")
    job = Job.objects.get(kind=JobKind.DECISION_ROLLOUT)
    assert job.status == JobStatus.DONE and job.result["botgame"] == game.pk, job.error
    shown = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    first = job.result["plays"][0]
    assert "36 games a play, seed" in shown
    assert f"{first['equity_mp']:+d} ± {first['se_mp']}" in shown
    state = client.get(reverse("tournaments:botgame_rollouts", args=[game.pk])).json()
    assert state == {"done": 1, "waiting": []}
