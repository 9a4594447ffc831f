"""Fixtures shared by the tests in tests/tournaments/ (plain helpers: helpers.py)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

from tests.tournaments.helpers import BIG_RATES, World, make_world, play_out
from tournaments.models import ProhibitedPair, Round, Series
from tournaments.services.results import game_correct, game_enter_quick
from tournaments.services.submissions import submission_create, submission_reject


@pytest.fixture
def no_throttle(settings, monkeypatch):
    """Throttling must not make tests flaky: large rates, and an empty cache.
    DRF copies the rates into the throttle class when it is imported, so that copy is
    patched too."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": BIG_RATES}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", BIG_RATES)
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world(db, no_throttle) -> World:
    return make_world()


@pytest.fixture
def played(world: World) -> World:
    """Round 1 finished (one series with records, one quick with a correction), a
    submission rejected, a prohibited pair."""
    rnd = Round.objects.create(tournament=world.tournament, number=1, name="První kolo")
    Series.objects.filter(pk__in=[world.series.pk, world.other_series.pk]).update(round=rnd)
    play_out(world.series, seed=100)
    p, u = world.players, world.users
    sub = submission_create(
        series=world.other_series, by=u["eva"], number=1, white=p["eva"], winner=p["eva"],
        kind="oin",
    )  # fmt: skip
    submission_reject(submission=sub, by=u["karel"], note="I won")
    first = game_enter_quick(
        series=world.other_series, white=p["eva"], winner=p["karel"], kind="oin"
    )
    game_correct(game=first, by=u["boss"], reason="it was a mars", kind="mars")
    play_out(world.other_series, seed=0, records=False)
    ProhibitedPair.objects.create(
        tournament=world.tournament, player_a=p["jana"], player_b=p["eva"], reason="sisters"
    )
    return world
