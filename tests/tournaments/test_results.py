"""Entering results: quick entry, full records verified by the engine, series that update
themselves (RULES L11, L12), corrections with an audit trail, and bad submissions that
change nothing - on PostgreSQL and SQLite."""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import translation

from engine import Rules, read_records, replay
from engine.selfplay import random_game
from tournaments.models import Correction, Game, Player, Series, SeriesStatus, Tournament
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.results import game_correct, game_enter_quick, game_enter_record

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    """These tests read the refusals' English words (their msgids): said in English."""
    with translation.override("en"):
        yield


def make_tournament(**settings: object) -> Tournament:
    values: dict[str, object] = {
        "name": "Club championship",
        "start_date": datetime.date(2026, 11, 1),
    }
    values.update(settings)
    return Tournament.objects.create(**values)


@pytest.fixture
def jana() -> Player:
    return Player.objects.create(name="Jana")


@pytest.fixture
def petr() -> Player:
    return Player.objects.create(name="Petr")


@pytest.fixture
def series(jana: Player, petr: Player) -> Series:
    return Series.objects.create(tournament=make_tournament(), player1=jana, player2=petr)


def a_record(white: str, black: str, *, seed: int, want: str | None = None, **tags: str) -> str:
    """A legal long nardy game between the two players (the first seed from ``seed`` on
    whose result starts with ``want``, e.g. "white" or "black mars")."""
    rules = Rules(mars=tags.get("Mars", "on") == "on")
    rng = random.Random(seed)
    while True:
        text = random_game("long", rng, rules)
        result = replay(read_records(text)[0]).outcome
        assert result is not None
        if want is None or result.result.startswith(want):
            break
    text = text.replace('[White "Random A"]', f'[White "{white}"]')
    text = text.replace('[Black "Random B"]', f'[Black "{black}"]')
    extra = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    return extra + text


def snapshot(series: Series) -> tuple[object, ...]:
    series.refresh_from_db()
    games = tuple(Game.objects.filter(series=series).values_list("number", "winner", "kind"))
    return series.status, series.score1, series.score2, series.winner_id, games


# quick entry -----------------------------------------------------------------


def test_quick_entry_scores_oin_and_mars_and_finishes_the_series(series, jana, petr):
    """L8: oin 1, mars 2; the series to 5 points is decided when one reaches 5."""
    game_enter_quick(series=series, white=jana, winner=jana, kind="mars", number=1)
    series.refresh_from_db()
    assert (series.score1, series.score2, series.status) == (2, 0, SeriesStatus.IN_PLAY)
    # L12 "loser": Petr lost game 1, so he starts game 2 with white
    game_enter_quick(series=series, white=petr, winner=petr, kind="oin", number=2)
    game_enter_quick(series=series, white=jana, winner=jana, kind="mars", number=3)
    game_enter_quick(series=series, white=petr, winner=jana, kind="oin", number=4)
    series.refresh_from_db()
    assert (series.score1, series.score2) == (5, 1)
    assert series.status == SeriesStatus.FINISHED and series.winner == jana
    assert series.finished_at is not None


def test_L12_the_wrong_player_with_white_is_refused(series, jana, petr):
    game_enter_quick(series=series, white=jana, winner=jana, kind="oin")
    before = snapshot(series)
    with pytest.raises(ApplicationError) as err:
        game_enter_quick(series=series, white=jana, winner=jana, kind="oin")
    assert err.value.field == "white" and "Petr starts game 2" in err.value.message
    assert snapshot(series) == before


@pytest.mark.parametrize(
    ("first_move", "game1_winner", "starter"),
    [("loser", "jana", "petr"), ("winner", "jana", "jana"), ("alternate", "jana", "petr"),
     ("alternate", "petr", "petr")],
)  # fmt: skip
def test_L12_who_starts_the_next_game(jana, petr, first_move, game1_winner, starter):
    t = make_tournament(first_move=first_move)
    s = Series.objects.create(tournament=t, player1=jana, player2=petr)
    players = {"jana": jana, "petr": petr}
    game_enter_quick(series=s, white=jana, winner=players[game1_winner], kind="oin")
    game_enter_quick(series=s, white=players[starter], winner=jana, kind="oin")
    assert Game.objects.get(series=s, number=2).white == players[starter]


def test_L10_L11_a_draw_scores_half_or_one_and_the_second_player_starts_next(jana, petr):
    for scoring, each in (("half", Decimal("0.5")), ("one", Decimal(1))):
        t = make_tournament(last_roll=True, draw_scoring=scoring)
        s = Series.objects.create(tournament=t, player1=jana, player2=petr)
        game_enter_quick(series=s, white=jana, winner=None, kind="draw")
        s.refresh_from_db()
        assert (s.score1, s.score2) == (each, each)
        with pytest.raises(ApplicationError):  # L12 decision: who moved second (Petr) starts
            game_enter_quick(series=s, white=jana, winner=jana, kind="oin")
        game_enter_quick(series=s, white=petr, winner=jana, kind="oin")


def test_series_of_exactly_n_games_can_end_drawn(jana, petr):
    t = make_tournament(series_mode="games", series_length=2)
    s = Series.objects.create(tournament=t, player1=jana, player2=petr)
    game_enter_quick(series=s, white=jana, winner=jana, kind="oin")
    game_enter_quick(series=s, white=petr, winner=petr, kind="oin")
    s.refresh_from_db()
    assert s.status == SeriesStatus.FINISHED and s.winner is None
    assert (s.score1, s.score2) == (1, 1)


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"kind": "koks"}, "kind", "koks exists only in short backgammon"),
        ({"kind": "draw", "winner": None}, "kind", "right of last roll"),
        ({"kind": "win"}, "kind", "unknown result"),
        ({"kind": "oin", "cube": 2}, "cube", "doubling cube"),
        ({"kind": "oin", "winner": None}, "winner", "a draw has no winner"),
        ({"kind": "oin", "number": 2}, "number", "before game 1"),
    ],
)
def test_bad_quick_entries_change_nothing(series, jana, kwargs, field, words):
    before = snapshot(series)
    args = {"series": series, "white": jana, "winner": jana, **kwargs}
    with pytest.raises(ApplicationError) as err:
        game_enter_quick(**args)
    assert err.value.field == field and words in err.value.message
    assert snapshot(series) == before


def test_a_winner_from_another_series_is_refused(series, jana):
    stranger = Player.objects.create(name="Host")
    with pytest.raises(ApplicationError, match="does not play in this series"):
        game_enter_quick(series=series, white=jana, winner=stranger, kind="oin")
    with pytest.raises(ApplicationError, match="does not play in this series"):
        game_enter_quick(series=series, white=stranger, winner=jana, kind="oin")
    assert not Game.objects.exists()


def test_mars_off_makes_every_win_an_oin(jana, petr):
    s = Series.objects.create(tournament=make_tournament(mars=False), player1=jana, player2=petr)
    with pytest.raises(ApplicationError, match="every win is an oin"):
        game_enter_quick(series=s, white=jana, winner=jana, kind="mars")


def test_a_duplicate_submission_is_refused(series, jana):
    game_enter_quick(series=series, white=jana, winner=jana, kind="oin", number=1)
    before = snapshot(series)
    with pytest.raises(ApplicationError, match="game 1 of this series is already entered"):
        game_enter_quick(series=series, white=jana, winner=jana, kind="oin", number=1)
    assert snapshot(series) == before


def test_no_game_after_the_series_is_finished(jana, petr):
    s = Series.objects.create(
        tournament=make_tournament(series_length=1), player1=jana, player2=petr
    )
    game_enter_quick(series=s, white=jana, winner=jana, kind="oin")
    before = snapshot(s)
    with pytest.raises(ApplicationError, match="no more games"):
        game_enter_quick(series=s, white=petr, winner=jana, kind="oin")
    assert snapshot(s) == before


# full records ----------------------------------------------------------------


def test_a_full_record_is_verified_and_stored_canonically(series, jana, petr):
    text = a_record("Jana", "Petr", seed=1)
    game = game_enter_record(series=series, record=text)
    outcome = replay(read_records(text)[0]).outcome
    assert outcome is not None
    side, kind = outcome.result.split()
    assert game.verified and game.verification_note == {
        "code": "verified",
        "params": {"winner": side, "kind": kind, "ended": "played", "cube": 1, "irregular": []},
    }
    with translation.override("en"):  # the note is said in the reader's language
        assert game.verification == f"ok, {side} won ({kind})"
    assert game.white == jana and game.black == petr
    assert game.kind == outcome.kind
    assert (game.winner == jana) == (outcome.winner == 0)
    assert '[Mars "on"]' in game.record  # the tournament's rule tags are written in
    assert replay(read_records(game.record)[0]).ok


def test_an_illegal_record_is_refused_with_the_engine_message_and_changes_nothing(series):
    text = a_record("Jana", "Petr", seed=2)
    bad = text.replace("1. ", "1. 66: 24/18/12 ", 1)  # an extra illegal first turn
    before = snapshot(series)
    with pytest.raises(ApplicationError) as err:
        game_enter_record(series=series, record=bad)
    assert err.value.field == "record" and err.value.line is not None
    assert "point 12 is closed" in err.value.message
    assert snapshot(series) == before


def test_a_malformed_record_is_refused_with_its_line_and_column(series):
    with pytest.raises(ApplicationError) as err:
        game_enter_record(series=series, record='[Variant "long"]\n\n1. 74: 24/17\n')
    assert (err.value.line, err.value.col) == (3, 4)
    assert "impossible dice value 7" in err.value.message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t.replace('[Variant "long"]', '[Variant "short"]'), "the tournament plays"),
        (lambda t: t.replace('[White "Jana"]', '[White "Karel"]'), "not a player of this"),
        (lambda t: '[LastRoll "on"]\n' + t, "LastRoll"),
        (lambda t: '[Series "999"]\n' + t, "another series"),
        (lambda t: '[Game "2"]\n' + t, "before game 1"),
        (lambda t: t + "\n" + t, "exactly one game"),
    ],
)  # fmt: skip
def test_a_record_must_agree_with_the_tournament_and_series(series, change, words):
    before = snapshot(series)
    with pytest.raises(ApplicationError, match=words):
        game_enter_record(series=series, record=change(a_record("Jana", "Petr", seed=3)))
    assert snapshot(series) == before


def test_a_record_without_a_result_tag_gets_the_computed_result(series):
    text = a_record("Jana", "Petr", seed=7)
    result_line = next(line for line in text.splitlines() if line.startswith("[Result"))
    game = game_enter_record(series=series, record=text.replace(result_line + "\n", ""))
    assert result_line in game.record


def test_a_wrong_result_tag_is_refused(series):
    text = a_record("Jana", "Petr", seed=7, want="white oin")
    with pytest.raises(ApplicationError, match="the Result tag says"):
        game_enter_record(series=series, record=text.replace("white oin", "black mars"))
    assert not Game.objects.exists()


def test_an_unfinished_record_is_refused(series):
    text = '[Variant "long"]\n[White "Jana"]\n[Black "Petr"]\n\n1. 64: 24/18/14\n'
    with pytest.raises(ApplicationError, match="does not finish the game"):
        game_enter_record(series=series, record=text)


def test_records_follow_the_colour_rule(series):
    text = a_record("Jana", "Petr", seed=4, want="white")  # Jana wins game 1
    game_enter_record(series=series, record=text)
    with pytest.raises(ApplicationError, match="Petr starts game 2"):
        game_enter_record(series=series, record=a_record("Jana", "Petr", seed=5))
    game_enter_record(series=series, record=a_record("Petr", "Jana", seed=5))
    assert Game.objects.filter(series=series).count() == 2


# corrections -----------------------------------------------------------------


@pytest.fixture
def director(series: Series) -> User:
    user = User.objects.create_user("director")
    series.tournament.directors.add(user)
    return user


def test_a_director_corrects_a_result_and_the_audit_trail_keeps_the_earlier_value(
    series, jana, petr, director
):
    game = game_enter_quick(series=series, white=jana, winner=jana, kind="oin")
    game_correct(game=game, by=director, reason="scoresheet misread", winner=petr, kind="mars")
    game.refresh_from_db()
    series.refresh_from_db()
    assert (game.winner, game.kind) == (petr, "mars")
    assert (series.score1, series.score2) == (0, 2)
    c = Correction.objects.get()
    assert c.by == director and c.reason == "scoresheet misread"
    assert (c.before["winner"], c.before["kind"]) == (jana.pk, "oin")
    assert (c.after["winner"], c.after["kind"]) == (petr.pk, "mars")


def test_only_directors_may_correct(series, jana, petr):
    game = game_enter_quick(series=series, white=jana, winner=jana, kind="oin")
    someone = User.objects.create_user("someone")
    with pytest.raises(PermissionDenied):
        game_correct(game=game, by=someone, reason="x", winner=petr)
    game.refresh_from_db()
    assert game.winner == jana and not Correction.objects.exists()


def test_a_correction_that_would_end_the_series_early_is_refused(jana, petr):
    boss = User.objects.create_superuser("boss")
    s = Series.objects.create(
        tournament=make_tournament(series_length=2), player1=jana, player2=petr
    )
    first = game_enter_quick(series=s, white=jana, winner=jana, kind="oin")
    game_enter_quick(series=s, white=petr, winner=petr, kind="oin")  # 1-1
    before = snapshot(s)
    with pytest.raises(ApplicationError, match="decided by game 1"):  # a mars would make it 2-0
        game_correct(game=first, by=boss, reason="was a mars", kind="mars")
    assert snapshot(s) == before and not Correction.objects.exists()


def test_a_correction_can_reopen_a_finished_series(jana, petr):
    boss = User.objects.create_superuser("boss")
    s = Series.objects.create(
        tournament=make_tournament(series_length=3), player1=jana, player2=petr
    )
    first = game_enter_quick(series=s, white=jana, winner=jana, kind="mars")  # 2-0
    game_enter_quick(series=s, white=petr, winner=petr, kind="oin")  # 2-1
    game_enter_quick(series=s, white=jana, winner=jana, kind="oin")  # 3-1
    s.refresh_from_db()
    assert s.status == SeriesStatus.FINISHED and s.winner == jana
    game_correct(game=first, by=boss, reason="it was an oin", kind="oin")
    s.refresh_from_db()
    assert s.status == SeriesStatus.IN_PLAY and (s.score1, s.score2) == (2, 1)
    assert s.winner is None and s.finished_at is None
    game_enter_quick(series=s, white=petr, winner=petr, kind="mars")  # 2-3
    s.refresh_from_db()
    assert s.status == SeriesStatus.FINISHED and s.winner == petr


def test_correcting_with_a_record(series, jana, petr, director):
    game = game_enter_quick(series=series, white=jana, winner=petr, kind="oin")
    text = a_record("Jana", "Petr", seed=6)
    game_correct(game=game, by=director, reason="the record was found", record=text)
    game.refresh_from_db()
    assert game.verified and game.record


# database constraints (what must never happen, whatever the code) -------------


def test_db_refuses_a_player_twice_in_one_series(jana):
    with pytest.raises(IntegrityError), transaction.atomic():
        Series.objects.create(tournament=make_tournament(), player1=jana, player2=jana)


def test_db_refuses_two_games_with_one_number(series, jana, petr):
    Game.objects.create(series=series, number=1, white=jana, black=petr, winner=jana, kind="oin")
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            series=series, number=1, white=petr, black=jana, winner=jana, kind="oin"
        )


def test_db_refuses_a_game_for_a_finished_series(series, jana, petr):
    Series.objects.filter(pk=series.pk).update(status=SeriesStatus.FINISHED)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            series=series, number=1, white=jana, black=petr, winner=jana, kind="oin"
        )
    Series.objects.filter(pk=series.pk).update(status=SeriesStatus.FORFEITED)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            series=series, number=1, white=jana, black=petr, winner=jana, kind="oin"
        )


def test_db_refuses_a_winner_who_did_not_play(series, jana, petr):
    stranger = Player.objects.create(name="Host")
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            series=series, number=1, white=jana, black=petr, winner=stranger, kind="oin"
        )


def test_short_backgammon_series_count_the_cube(jana, petr):
    """S7: a series to N points counts game points times the cube; a dropped double
    gives the cube's value before the double."""
    t = make_tournament(variant="short", cube=True, series_length=3)
    s = Series.objects.create(tournament=t, player1=jana, player2=petr)
    text = (
        '[Variant "short"]\n[White "Jana"]\n[Black "Petr"]\n\n'
        "1. 31: 8/5 6/5 double take 21: 13/11 6/5\n2. double drop\n"
    )
    game = game_enter_record(series=s, record=text)
    assert (game.winner, game.kind, game.ended, game.cube) == (jana, "oin", "dropped", 2)
    s.refresh_from_db()
    assert (s.score1, s.score2) == (2, 0)
    with pytest.raises(ApplicationError, match="without the doubling cube"):
        Tournament.objects.filter(pk=t.pk).update(cube=False)
        s.tournament.refresh_from_db()
        game_enter_quick(series=s, white=petr, winner=petr, kind="oin", cube=2)


def test_the_crawford_game_of_a_series_is_played_without_the_cube(jana, petr):
    """S7: in a series to 3 points, once Jana reaches 2 the next game is the Crawford
    game: a record with a double in it is refused."""
    t = make_tournament(variant="short", cube=True, series_length=3)
    s = Series.objects.create(tournament=t, player1=jana, player2=petr)
    game_enter_quick(series=s, white=jana, winner=jana, kind="mars")  # 2-0
    text = (
        '[Variant "short"]\n[White "Petr"]\n[Black "Jana"]\n\n'
        "1. 31: 8/5 6/5 double take 21: 13/11 6/5\n2. double drop\n"
    )
    with pytest.raises(ApplicationError, match="Crawford game"):
        game_enter_record(series=s, record=text)
    assert Game.objects.filter(series=s).count() == 1
