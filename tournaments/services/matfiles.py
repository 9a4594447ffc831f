"""A short-backgammon series to and from GNU Backgammon ``.mat`` match files (engine/
matfile.py reads and writes them; the games go in through the result services)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.engine import (
    EngineError,
    read_mat,
    read_records,
    replay,
    variant_named,
    write_mat,
)
from tournaments.models import Game, Series
from tournaments.selectors.access import User
from tournaments.services.errors import ApplicationError
from tournaments.services.results import game_enter_record


@transaction.atomic
def series_import_mat(*, series: Series, text: str, by: User | None = None) -> list[Game]:
    """Enter every game of a ``.mat`` match into the series, in order; the match's
    player names must be the series' players. One refused game refuses the whole file
    (nothing is saved)."""
    if not variant_named(series.tournament.variant).mat_format:
        raise ApplicationError(
            _(".mat match files hold short backgammon games"), code="mat-short-only", field="file"
        )
    try:
        records = read_mat(text)
    except EngineError as exc:
        raise ApplicationError.from_engine(exc, field="file") from None
    if not records:
        raise ApplicationError(_("the file holds no game"), code="file-no-game", field="file")
    games = []
    for number, record in enumerate(records, start=1):
        text_of_game = replay(record, check_result=False).canonical()
        try:
            games.append(game_enter_record(series=series, record=text_of_game, by=by))
        except ApplicationError as exc:
            raise exc.within(
                _("game %(number)s of the file: %(message)s"), number=number, field="file"
            ) from None
    return games


def series_export_mat(*, series: Series) -> str:
    """The series' games as a ``.mat`` match (every game needs its full record)."""
    games = list(series.games.order_by("number"))
    if not games:
        raise ApplicationError(_("the series has no games yet"), code="series-no-games")
    missing = [g.number for g in games if not g.record]
    if missing:
        raise ApplicationError(
            _("game %(number)s has no record: a .mat file needs every move"),
            code="mat-needs-records",
            params={"number": missing[0]},
        )
    records = [read_records(g.record)[0] for g in games]
    try:
        return write_mat(records)
    except EngineError as exc:
        raise ApplicationError.from_engine(exc) from None
