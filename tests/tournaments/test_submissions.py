"""Players submit their own series' results; they count once the opponent or a director
confirms; concurrent or repeated entries conflict instead of being lost."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from tournaments.models import Game, Player, Series, Submission, SubmissionStatus
from tournaments.services.errors import ApplicationError, Conflict, PermissionDenied
from tournaments.services.results import game_correct, game_enter_quick
from tournaments.services.setup import tournament_create
from tournaments.services.submissions import (
    submission_confirm,
    submission_create,
    submission_reject,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    """These tests read the refusals' English words (their msgids): said in English."""
    with translation.override("en"):
        yield


@pytest.fixture
def setup():
    t = tournament_create(name="Přebor", start_date=datetime.date(2026, 11, 29))
    users = {n: User.objects.create_user(n) for n in ("jana", "petr", "eva", "boss")}
    players = {n: Player.objects.create(name=n.title(), user=users[n]) for n in ("jana", "petr")}
    t.directors.add(users["boss"])
    series = Series.objects.create(tournament=t, player1=players["jana"], player2=players["petr"])
    return series, users, players


def test_a_submitted_result_counts_once_the_opponent_confirms(setup):
    series, users, players = setup
    sub = submission_create(
        series=series, by=users["jana"], number=1, white=players["jana"],
        winner=players["jana"], kind="mars",
    )  # fmt: skip
    assert not Game.objects.exists()
    with pytest.raises(PermissionDenied):  # not by the one who submitted it
        submission_confirm(submission=sub, by=users["jana"])
    with pytest.raises(PermissionDenied):  # nor by a stranger
        submission_confirm(submission=sub, by=users["eva"])
    game = submission_confirm(submission=sub, by=users["petr"])
    sub.refresh_from_db()
    assert sub.status == SubmissionStatus.CONFIRMED and sub.game == game
    series.refresh_from_db()
    assert series.score1 == 2
    with translation.override("en"), pytest.raises(Conflict, match="already confirmed"):
        submission_confirm(submission=sub, by=users["boss"])


def test_a_director_confirms_or_the_opponent_rejects(setup):
    series, users, players = setup
    sub = submission_create(
        series=series, by=users["petr"], number=1, white=players["jana"],
        winner=players["petr"], kind="oin",
    )  # fmt: skip
    submission_reject(submission=sub, by=users["jana"], note="I won that game")
    sub.refresh_from_db()
    assert sub.status == SubmissionStatus.REJECTED and not Game.objects.exists()
    again = submission_create(
        series=series, by=users["jana"], number=1, white=players["jana"],
        winner=players["jana"], kind="oin",
    )  # fmt: skip
    submission_confirm(submission=again, by=users["boss"])
    assert Game.objects.get().winner == players["jana"]


def test_only_players_submit_and_only_one_pending_result_per_game(setup):
    series, users, players = setup
    with pytest.raises(PermissionDenied):
        submission_create(series=series, by=users["eva"], number=1, white=players["jana"],
                          winner=players["jana"], kind="oin")  # fmt: skip
    submission_create(series=series, by=users["jana"], number=1, white=players["jana"],
                      winner=players["jana"], kind="oin")  # fmt: skip
    with pytest.raises(Conflict, match="already waiting"):
        submission_create(series=series, by=users["petr"], number=1, white=players["jana"],
                          winner=players["petr"], kind="oin")  # fmt: skip
    # game 2 may wait beside game 1, checked after it: the loser of game 1 starts it
    with pytest.raises(ApplicationError, match="Petr starts game 2"):
        submission_create(series=series, by=users["petr"], number=2, white=players["jana"],
                          winner=players["petr"], kind="oin")  # fmt: skip
    with pytest.raises(ApplicationError, match="next game of this series is game 2"):
        submission_create(series=series, by=users["petr"], number=3, white=players["petr"],
                          winner=players["petr"], kind="oin")  # fmt: skip
    assert Submission.objects.count() == 1


def test_game_2_is_submitted_while_game_1_waits_and_both_are_confirmed_in_order(setup):
    """Before: "the next game of this series is game 1, not 2" until game 1 was confirmed."""
    series, users, players = setup
    first = submission_create(series=series, by=users["jana"], number=1, white=players["jana"],
                              winner=players["jana"], kind="oin")  # fmt: skip
    second = submission_create(series=series, by=users["jana"], number=2, white=players["petr"],
                               winner=players["jana"], kind="mars")  # fmt: skip
    assert [s.status for s in (first, second)] == [SubmissionStatus.PENDING] * 2
    with pytest.raises(ApplicationError, match="game 2 cannot be entered before game 1"):
        submission_confirm(submission=second, by=users["petr"])  # in order
    assert Game.objects.count() == 0
    submission_confirm(submission=first, by=users["petr"])
    submission_confirm(submission=second, by=users["petr"])
    assert list(series.games.order_by("number").values_list("number", "kind")) == [
        (1, "oin"),
        (2, "mars"),
    ]


def test_a_bad_record_is_refused_at_submission(setup):
    series, users, _ = setup
    with pytest.raises(ApplicationError) as err:
        submission_create(series=series, by=users["jana"], number=1,
                          record='[Variant "long"]\n\n1. 74: 24/17\n')  # fmt: skip
    assert err.value.line == 3
    assert not Submission.objects.exists()


def test_entering_a_game_twice_is_a_conflict_with_the_current_value(setup):
    series, _, players = setup
    game_enter_quick(series=series, white=players["jana"], winner=players["jana"], kind="oin",
                     number=1)  # fmt: skip
    with pytest.raises(Conflict) as err:
        game_enter_quick(series=series, white=players["jana"], winner=players["petr"],
                         kind="oin", number=1)  # fmt: skip
    assert cast(dict[str, Any], err.value.current)["winner"] == players["jana"].pk


def test_a_correction_on_a_stale_version_conflicts(setup):
    series, users, players = setup
    game = game_enter_quick(series=series, white=players["jana"], winner=players["jana"],
                            kind="oin")  # fmt: skip
    game_correct(game=game, by=users["boss"], reason="a", kind="mars", expected_version=0)
    with pytest.raises(Conflict, match="changed meanwhile") as err:
        game_correct(game=game, by=users["boss"], reason="b", winner=players["petr"],
                     expected_version=0)  # fmt: skip
    assert cast(dict[str, Any], err.value.current)["kind"] == "mars"
