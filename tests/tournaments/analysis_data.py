"""Plain helpers of the evaluator's tests in the app (test_analysis_net.py,
test_pages_analysis.py): a long-nardy series and a random game's record for it."""

from __future__ import annotations

import datetime
import random

from engine.selfplay import random_game
from tests.tournaments.pages_data import director
from tournaments.models import Player, Series
from tournaments.services.pairings import round_generate
from tournaments.services.setup import entry_register, tournament_create


def a_series(variant: str = "long", players: int = 2) -> Series:
    t = tournament_create(
        name=f"{variant} cup", start_date=datetime.date(2026, 5, 1), format="round_robin",
        series_length=1, variant=variant,
    )  # fmt: skip
    t.directors.add(director("analyst"))
    for name in ("Iva", "Jan", "Ota", "Eva")[:players]:
        entry_register(tournament=t, player=Player.objects.create(name=name))
    round_generate(tournament=t)
    return Series.objects.select_related("player1", "player2", "tournament").filter(
        tournament=t, player2__isnull=False
    )[0]


def record_for(series: Series, seed: int) -> str:
    text = random_game(series.tournament.variant, random.Random(seed))
    return text.replace("Random A", series.player1.name).replace("Random B", series.player2.name)
