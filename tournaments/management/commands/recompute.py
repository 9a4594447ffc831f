"""manage.py recompute [--tournament ID]: series scores and statuses, then the ratings."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.management.records import TournamentsCommand
from tournaments.models import JobKind, SeriesStatus, Tournament
from tournaments.services.exports import Progress
from tournaments.services.maintenance import Recomputed, series_recompute_all


class Command(TournamentsCommand):
    help = (
        "Recompute every series (score, status, winner) from its games, then every rating "
        "from the rated series; all in one transaction."
    )
    kind = JobKind.RECOMPUTE
    unit = "series"
    tournament_help = "only this tournament's series"

    def work(self, *, tournament: Tournament | None, progress: Progress) -> None:
        self.stdout.write(_summary(series_recompute_all(tournament=tournament, progress=progress)))


def _summary(report: Recomputed) -> str:
    """``66 series recomputed (54 finished, 2 in play, 10 scheduled), 1 changed; ratings
    recomputed from 53 rated series``, each status named in the command's language."""
    statuses = ", ".join(
        _("%(count)s %(status)s") % {"count": n, "status": SeriesStatus(status).label}
        for status, n in sorted(report.statuses.items())
    )
    return _("%(recomputed)s (%(statuses)s), %(changed)s; %(ratings)s") % {
        "recomputed": ngettext(
            "%(count)s series recomputed", "%(count)s series recomputed", report.series
        )
        % {"count": report.series},
        "statuses": statuses or _("none"),
        "changed": ngettext("%(count)s changed", "%(count)s changed", report.changed)
        % {"count": report.changed},
        "ratings": ngettext(
            "ratings recomputed from %(count)s rated series",
            "ratings recomputed from %(count)s rated series",
            report.rated,
        )
        % {"count": report.rated},
    }
