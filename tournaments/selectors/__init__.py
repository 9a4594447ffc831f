"""Reads across models, each in a fixed number of queries whatever the tournament's size."""

from tournaments.selectors.standings import (
    StandingRow,
    progress_by_round,
    standings_for_tournament,
)

__all__ = ["StandingRow", "progress_by_round", "standings_for_tournament"]
