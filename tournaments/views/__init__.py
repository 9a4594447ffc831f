"""The web pages, by area: public, game, director, results (entering and confirming)."""

from tournaments.views.director import (
    entries,
    game_correction,
    pair,
    tournament_delete_page,
    tournament_edit,
    tournament_new,
)
from tournaments.views.game import game_detail
from tournaments.views.public import (
    home,
    player_detail,
    series_detail,
    tournament_detail,
    tournament_print,
    tournament_statistics,
)
from tournaments.views.results import (
    confirmations,
    decide,
    enter_quick,
    enter_record,
    record_check,
)

__all__ = [
    "confirmations",
    "decide",
    "enter_quick",
    "enter_record",
    "entries",
    "game_correction",
    "game_detail",
    "home",
    "pair",
    "player_detail",
    "record_check",
    "series_detail",
    "tournament_delete_page",
    "tournament_detail",
    "tournament_edit",
    "tournament_new",
    "tournament_print",
    "tournament_statistics",
]
