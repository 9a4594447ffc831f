"""One rating and history per game (docs/ratings.md): long nardy and Lurč rated apart,
seeding by the rating of the tournament's game, migration 0022 splitting a mixed history,
the player page and the API in Czech and English."""

from __future__ import annotations

import datetime
from datetime import UTC, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournaments.helpers import EN, World, next_colours, rating_of
from tournaments.models import (
    Entry,
    Player,
    PlayerRating,
    RatingChange,
    Series,
    Tournament,
    Variant,
)
from tournaments.services.ratings import rating_change, ratings_recompute
from tournaments.services.results import game_enter_quick

CS: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "cs"}
BEFORE = [("tournaments", "0021_merge_rating_change_names")]
AFTER = [("tournaments", "0022_ratings_per_variant")]
T0 = datetime.datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def _tournament(world: World, variant: str, name: str, length: int = 3) -> Tournament:
    t = Tournament.objects.create(
        name=name, start_date=datetime.date(2026, 11, 2), variant=variant, series_length=length
    )
    t.directors.add(world.users["boss"])
    return t


def _win(t: Tournament, winner: Player, loser: Player) -> Series:
    """A series that ``winner`` wins game by game, entered as a director enters results
    (the quick entry, which rates the series when it is decided)."""
    series = Series.objects.create(tournament=t, player1=winner, player2=loser)
    while True:
        series.refresh_from_db()
        if series.closed:
            return series
        white, _ = next_colours(series)
        game_enter_quick(series=series, white=white, winner=winner, kind="oin")


@pytest.fixture
def two_games(world: World) -> tuple[Tournament, Tournament]:
    """Jana beats Petr in long nardy (to 5), Petr beats Jana twice in Lurč (to 3)."""
    jana, petr = world.players["jana"], world.players["petr"]
    long_t = _tournament(world, Variant.LONG, "Long cup", length=5)
    lurc_t = _tournament(world, Variant.LURC, "Lurč cup")
    _win(long_t, jana, petr)
    _win(lurc_t, petr, jana)
    _win(lurc_t, petr, jana)
    return long_t, lurc_t


def test_long_nardy_and_lurc_are_two_independent_ratings(
    world: World, two_games: tuple[Tournament, Tournament]
) -> None:
    jana, petr = world.players["jana"], world.players["petr"]
    long_gain, _ = rating_change(
        winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, length=5
    )
    assert rating_of(jana, Variant.LONG).rating == pytest.approx(1500 + long_gain)
    assert rating_of(jana, Variant.LONG).experience == 5
    # Lurč starts at 1500 for both, whatever their long nardy ratings
    first, _ = rating_change(
        winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, length=3
    )
    second, loss = rating_change(
        winner_rating=1500 + first, loser_rating=1500 - first, winner_experience=3,
        loser_experience=3, length=3,
    )  # fmt: skip
    assert rating_of(petr, Variant.LURC).rating == pytest.approx(1500 + first + second)
    assert rating_of(jana, Variant.LURC).rating == pytest.approx(1500 - first - loss)
    assert rating_of(jana, Variant.LURC).experience == 6
    assert rating_of(petr, Variant.SHORT).pk is None  # never played: no row, 1500
    history = RatingChange.objects.filter(player=jana).order_by("at", "id")
    assert [(h.variant, h.before) for h in history] == [
        (Variant.LONG, 1500),
        (Variant.LURC, 1500),
        (Variant.LURC, pytest.approx(1500 - first)),
    ]


def test_recomputing_lurc_leaves_long_nardy_alone(
    world: World, two_games: tuple[Tournament, Tournament]
) -> None:
    _, lurc_t = two_games
    jana = world.players["jana"]
    long_before = rating_of(jana, Variant.LONG).rating
    lurc_t.rated = False
    lurc_t.save()
    assert ratings_recompute(variant=Variant.LURC) == 0
    assert rating_of(jana, Variant.LONG).rating == long_before
    assert not RatingChange.objects.filter(variant=Variant.LURC).exists()
    assert not PlayerRating.objects.filter(variant=Variant.LURC).exists()  # 1500 untouched


def test_seeding_in_a_lurc_tournament_uses_the_lurc_rating(
    world: World, two_games: tuple[Tournament, Tournament]
) -> None:
    jana, petr = world.players["jana"], world.players["petr"]
    assert rating_of(jana, Variant.LONG).rating > rating_of(petr, Variant.LONG).rating
    t = _tournament(world, Variant.LURC, "Lurč open")
    for p in (jana, petr):
        Entry.objects.create(tournament=t, player=p)
    client = Client()
    client.force_login(world.users["boss"])
    assert client.post(f"/tournaments/{t.pk}/do/seed/").status_code == 302
    seeds = dict(Entry.objects.filter(tournament=t).values_list("player_id", "seed"))
    assert seeds == {petr.pk: 1, jana.pk: 2}  # Petr leads in Lurč
    page = client.get(f"/tournaments/{t.pk}/players/", **EN).content.decode()
    lurc = round(rating_of(petr, Variant.LURC).rating)
    assert f"<td>{lurc}</td>" in page  # the entries show the Lurč rating
    long_t = _tournament(world, Variant.LONG, "Long open")
    for p in (jana, petr):
        Entry.objects.create(tournament=long_t, player=p)
    assert client.post(f"/tournaments/{long_t.pk}/do/seed/").status_code == 302
    seeds = dict(Entry.objects.filter(tournament=long_t).values_list("player_id", "seed"))
    assert seeds == {jana.pk: 1, petr.pk: 2}


def test_registering_in_a_lurc_tournament_gives_the_lurc_start(world: World) -> None:
    t = _tournament(world, Variant.LURC, "Lurč open")
    client = Client()
    client.force_login(world.users["boss"])
    answer = client.post(
        f"/tournaments/{t.pk}/players/", {"new_name": "Nova", "new_rating": "1710"}
    )
    assert answer.status_code == 302
    nova = Player.objects.get(name="Nova")
    assert rating_of(nova, Variant.LURC).start_rating == 1710
    assert rating_of(nova, Variant.LONG).pk is None


@pytest.mark.parametrize(
    ("language", "heading", "long_name", "lurc_name", "start"),
    [
        (EN, "Ratings", "Long nardy", "Lurč", "starting rating"),
        (CS, "Ratingy", "Dlouhé vrhcáby", "Lurč", "počáteční rating"),
    ],
)
def test_the_player_page_shows_each_games_rating_and_history(
    world: World,
    two_games: tuple[Tournament, Tournament],
    language: dict[str, Any],
    heading: str,
    long_name: str,
    lurc_name: str,
    start: str,
) -> None:
    jana = world.players["jana"]
    page = Client().get(f"/players/{jana.pk}/", **language).content.decode()
    assert f'<h2 id="rating-heading">{heading}</h2>' in page
    assert f'<h3 id="rating-long-heading">{long_name}</h3>' in page
    assert f'<h3 id="rating-lurc-heading">{lurc_name}</h3>' in page
    assert 'id="rating-short-heading"' not in page
    assert page.count(start) == 2
    lurc = page[page.index('id="rating-lurc-heading"') :]
    assert 'id="rating-chart-lurc"' in lurc and lurc.count("<tr><td>") == 2  # two Lurč series
    long_part = page[
        page.index('id="rating-long-heading"') : page.index('id="rating-lurc-heading"')
    ]
    assert long_part.count("<tr><td>") == 1


def test_the_player_page_makes_a_fixed_number_of_queries(
    world: World, two_games: tuple[Tournament, Tournament]
) -> None:
    jana, petr = world.players["jana"], world.players["petr"]
    client = Client()
    cache.clear()  # the page itself, not a cached copy
    with CaptureQueriesContext(connection) as few:
        assert client.get(f"/players/{jana.pk}/").status_code == 200
    long_t, lurc_t = two_games
    short_t = _tournament(world, Variant.SHORT, "Short cup")
    for t in (long_t, lurc_t, short_t, long_t, lurc_t):  # more series, and a third game
        _win(t, jana, petr)
    cache.clear()
    with CaptureQueriesContext(connection) as many:
        page = client.get(f"/players/{jana.pk}/")
    assert page.status_code == 200 and 'id="rating-short-heading"' in page.content.decode()
    assert len(many) == len(few)


@pytest.mark.parametrize("language", [EN, CS])
def test_the_api_gives_every_games_rating(
    world: World, two_games: tuple[Tournament, Tournament], language: dict[str, Any]
) -> None:
    jana, petr = world.players["jana"], world.players["petr"]
    anonymous = world.client(None)
    read = anonymous.get(f"/api/players/{jana.pk}/", **language).json()
    ratings = {r["variant"]: r for r in read["ratings"]}
    assert set(ratings) == {"long", "lurc"}
    assert ratings["lurc"]["rating"] == pytest.approx(rating_of(jana, Variant.LURC).rating)
    assert ratings["lurc"]["experience"] == 6 and ratings["lurc"]["start_rating"] == 1500
    # the deprecated fields are long nardy's
    assert read["rating"] == pytest.approx(rating_of(jana, Variant.LONG).rating)
    assert read["experience"] == 5
    history = anonymous.get(f"/api/players/{jana.pk}/ratings/", **language).json()
    assert [h["variant"] for h in history] == ["long", "lurc", "lurc"]
    ordered = anonymous.get("/api/players/?ordering=-rating", **language).json()["results"]
    assert [p["name"] for p in ordered][:1] == ["Jana"]
    bad = world.client("staff").patch(
        f"/api/players/{petr.pk}/", {"start_rating": 0}, format="json", **language
    )
    assert bad.status_code == 400
    text = "greater than or equal to 1" if language is EN else "větší nebo rovna 1"
    assert text in bad.content.decode(), bad.content


def test_a_new_long_start_through_the_api_replays_long_nardy_only(
    world: World, two_games: tuple[Tournament, Tournament]
) -> None:
    jana = world.players["jana"]
    lurc = rating_of(jana, Variant.LURC).rating
    answer = world.client("staff").patch(
        f"/api/players/{jana.pk}/", {"start_rating": 1600}, format="json"
    )
    assert answer.status_code == 200, answer.content
    gain, _ = rating_change(
        winner_rating=1600, loser_rating=1500, winner_experience=0, loser_experience=0, length=5
    )
    assert answer.json()["rating"] == pytest.approx(1600 + gain)
    assert rating_of(jana, Variant.LURC).rating == lurc


@pytest.mark.django_db(transaction=True)
def test_migration_0022_splits_a_mixed_history_by_game() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldPlayer = old.get_model("tournaments", "Player")
    OldTournament = old.get_model("tournaments", "Tournament")
    OldSeries = old.get_model("tournaments", "Series")
    OldChange = old.get_model("tournaments", "RatingChange")
    OldEntry = old.get_model("tournaments", "Entry")
    # Ada came with 1700 from a CSV and played both games; her one rating mixed them
    ada = OldPlayer.objects.create(name="Ada", rating=1777, start_rating=1700, experience=8)
    bob = OldPlayer.objects.create(name="Bob", rating=1423, experience=8)
    OldPlayer.objects.create(name="Cyd", rating=1650, start_rating=1650)  # never played
    eve = OldPlayer.objects.create(name="Eve", rating=1610, start_rating=1610)  # entered only
    day = datetime.date(2026, 11, 1)
    long_t = OldTournament.objects.create(name="L", start_date=day, variant="long", series_length=5)
    lurc_t = OldTournament.objects.create(name="Z", start_date=day, variant="lurc", series_length=3)
    OldEntry.objects.create(tournament=lurc_t, player=eve)
    s1 = OldSeries.objects.create(
        tournament=long_t, player1=ada, player2=bob, status="finished", winner=ada, finished_at=T0
    )
    s2 = OldSeries.objects.create(
        tournament=lurc_t, player1=ada, player2=bob, status="finished", winner=bob,
        finished_at=T0 + timedelta(days=1),
    )  # fmt: skip
    for series, at, ada_before in ((s1, T0, 1700.0), (s2, s2.finished_at, 1720.0)):
        OldChange.objects.create(
            player=ada, series=series, before=ada_before, after=ada_before + 1,
            experience_before=0, at=at,
        )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    try:
        new = executor.loader.project_state(AFTER).apps
        Rating = new.get_model("tournaments", "PlayerRating")
        Change = new.get_model("tournaments", "RatingChange")
        rows = {(r.player.name, r.variant): r for r in Rating.objects.select_related("player")}
        assert set(rows) == {
            ("Ada", "long"), ("Bob", "long"), ("Ada", "lurc"), ("Bob", "lurc"),
            ("Cyd", "long"), ("Eve", "lurc"),
        }  # fmt: skip
        gain, loss = rating_change(
            winner_rating=1700, loser_rating=1500, winner_experience=0, loser_experience=0,
            length=5,
        )  # fmt: skip
        assert rows[("Ada", "long")].rating == pytest.approx(1700 + gain)
        assert rows[("Bob", "long")].rating == pytest.approx(1500 - loss)
        # Lurč starts again from Ada's start, not from her long nardy rating
        up, down = rating_change(
            winner_rating=1500, loser_rating=1700, winner_experience=0, loser_experience=0,
            length=3,
        )  # fmt: skip
        assert rows[("Ada", "lurc")].rating == pytest.approx(1700 - down)
        assert rows[("Ada", "lurc")].start_rating == 1700
        assert rows[("Bob", "lurc")].rating == pytest.approx(1500 + up)
        assert (rows[("Ada", "lurc")].experience, rows[("Ada", "long")].experience) == (3, 5)
        assert (rows[("Cyd", "long")].rating, rows[("Eve", "lurc")].start_rating) == (1650, 1610)
        history = Change.objects.order_by("at", "player__name")
        assert [(h.player.name, h.variant, h.before) for h in history] == [
            ("Ada", "long", 1700), ("Bob", "long", 1500),
            ("Ada", "lurc", 1700), ("Bob", "lurc", 1500),
        ]  # fmt: skip
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
