"""The REST API under /api/ (docs/api.md)."""

from __future__ import annotations

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.urls import URLPattern, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from tournaments.api import files, jobs, people, rounds, stats, views
from tournaments.api.docs import LocalRedocView, redoc_script
from tournaments.caching.pages import public_page
from tournaments.caching.versions import (
    player_version,
    site_version,
    tournament_version,
    tournaments_version,
)

app_name = "api"

# SimpleRouter: no format suffixes, so that /standings.csv and /record.nrd are plain paths.
router = SimpleRouter()
router.register("clubs", views.ClubViewSet, basename="club")
router.register("players", views.PlayerViewSet, basename="player")
router.register("tournaments", views.TournamentViewSet, basename="tournament")
router.register("rounds", views.RoundViewSet, basename="round")
router.register("series", views.SeriesViewSet, basename="series")
router.register("games", views.GameViewSet, basename="game")
router.register("submissions", views.SubmissionViewSet, basename="submission")
router.register("reports", views.SeriesReportViewSet, basename="report")
# dirB: directors' round and series actions (their routes do not clash with the above)
router.register("rounds", rounds.RoundDirectingViewSet, basename="round-directing")
router.register("series", rounds.SeriesDirectingViewSet, basename="series-directing")
router.register("games", rounds.GameDirectingViewSet, basename="game-directing")

# Anonymous reads: the whole JSON response cached by version, with ETag / 304
# (tournaments/caching/pages.py). A list's filters, its page and its ordering are its own
# parameters; a free text search (players' ``name``) is rendered as usual.
ID, PAGE, ORDER, WORD = r"\d{1,9}", r"\d{1,4}", r"-?[a-z_]{1,30}", r"[A-Za-z_]{1,20}"
LISTED = {"page": PAGE, "ordering": ORDER}
PUBLIC_READS = {
    "tournament-list": public_page(tournaments_version, params={"page": PAGE}, html=False),
    "tournament-detail": public_page(tournament_version, html=False),
    "tournament-standings": public_page(tournament_version, html=False),
    "club-list": public_page(site_version, params={**LISTED, "country": WORD}, html=False),
    "club-detail": public_page(site_version, html=False),
    "player-list": public_page(
        site_version,
        params={**LISTED, "club": ID, "active": WORD, "country": WORD},
        html=False,
    ),
    "player-detail": public_page(site_version, html=False),
    "player-ratings": public_page(site_version, html=False),
    "round-list": public_page(
        site_version, params={**LISTED, "tournament": ID, "number": ID}, html=False
    ),
    "round-detail": public_page(site_version, html=False),
    "series-list": public_page(
        site_version,
        params={**LISTED, "tournament": ID, "round": ID, "status": WORD, "player": ID},
        html=False,
    ),
    "series-detail": public_page(site_version, html=False),
    "game-list": public_page(
        site_version,
        params={**LISTED, "series": ID, "tournament": ID, "verified": WORD, "kind": WORD},
        html=False,
    ),
    "game-detail": public_page(site_version, html=False),
    "submission-list": public_page(
        site_version, params={**LISTED, "series": ID, "tournament": ID, "status": WORD}, html=False
    ),
    "submission-detail": public_page(site_version, html=False),
}
for route in router.urls:
    if isinstance(route, URLPattern) and route.name in PUBLIC_READS:
        route.callback = PUBLIC_READS[route.name](route.callback)

DOCS_CSP = csp_update({"style-src": [UNSAFE_INLINE], "worker-src": [SELF, "blob:"]})

urlpatterns = [
    # before the router, whose detail routes would take "import" for an id
    path("players/import/", files.PlayersImport.as_view(), name="players-import"),
    path("tournaments/import/", files.TournamentImport.as_view(), name="tournaments-import"),
    path(
        "tournaments/<int:pk>/players/import/",
        files.TournamentPlayersImport.as_view(),
        name="tournament-players-import",
    ),
    # dirA: a director's people (tournaments/api/people.py)
    path("players/search/", people.PlayerSearch.as_view(), name="players-search"),
    path("invitations/claim/", people.InvitationClaim.as_view(), name="invitation-claim"),
    path("tournaments/<int:pk>/entries/", people.Entries.as_view(), name="entries"),
    path("tournaments/<int:pk>/entries/<int:player>/", people.EntryDetail.as_view(), name="entry"),
    path(
        "tournaments/<int:pk>/entries/<int:player>/withdraw/",
        people.EntryWithdraw.as_view(),
        name="entry-withdraw",
    ),
    path(
        "tournaments/<int:pk>/entries/<int:player>/reinstate/",
        people.EntryReinstate.as_view(),
        name="entry-reinstate",
    ),
    path(
        "tournaments/<int:pk>/entries/<int:player>/invitation/",
        people.EntryInvitation.as_view(),
        name="entry-invitation",
    ),
    path("tournaments/<int:pk>/directors/", people.Directors.as_view(), name="directors"),
    path(
        "tournaments/<int:pk>/directors/<str:username>/",
        people.DirectorDetail.as_view(),
        name="director",
    ),
    path("tournaments/<int:pk>/prohibited-pairs/", people.Pairs.as_view(), name="pairs"),
    path(
        "tournaments/<int:pk>/prohibited-pairs/<int:pair>/",
        people.PairDetail.as_view(),
        name="pair",
    ),
    path("submissions/mine/", rounds.MySubmissions.as_view(), name="submissions-mine"),
    path("submissions/waiting/", rounds.WaitingCount.as_view(), name="submissions-waiting"),
    path("", include(router.urls)),
    path("games/<int:pk>/record.nrd", files.GameRecordDownload.as_view(), name="game-nrd"),
    path("series/<int:pk>/records.nrd", files.SeriesRecordsDownload.as_view(), name="series-nrd"),
    path("series/<int:pk>/records/", files.SeriesRecordsUpload.as_view(), name="series-upload"),
    path(
        "tournaments/<int:pk>/records.nrd",
        files.TournamentRecordsDownload.as_view(),
        name="tournament-nrd",
    ),
    path("tournaments/<int:pk>/standings.csv", files.StandingsCSV.as_view(), name="standings-csv"),
    path(
        "tournaments/<int:pk>/crosstable.csv",
        files.CrosstableCSV.as_view(),
        name="crosstable-csv",
    ),
    path(
        "tournaments/<int:pk>/archive.json",
        files.TournamentArchiveDownload.as_view(),
        name="tournament-archive",
    ),
    path("verify/", files.Verify.as_view(), name="verify"),
    path("jobs/<int:pk>/", jobs.JobStatus.as_view(), name="job"),
    path("games/<int:pk>/stats/", stats.GameStats.as_view(), name="game-stats"),
    # the figures of the statistics pages, cached for visitors under the same versions
    path(
        "players/<int:pk>/stats/",
        public_page(player_version, html=False)(stats.PlayerStatsView.as_view()),
        name="player-stats",
    ),
    path(
        "tournaments/<int:pk>/stats/",
        public_page(tournament_version, html=False)(stats.TournamentStatsView.as_view()),
        name="tournament-stats",
    ),
    path(
        "tournaments/<int:pk>/stats/luck-share/",
        public_page(tournament_version, html=False)(stats.TournamentLuckShareView.as_view()),
        name="tournament-luck-share",
    ),
    path("token/", files.Token.as_view(), name="token"),
    path("schema/", SpectacularAPIView.as_view(urlconf=None), name="schema"),
    # Swagger UI and Redoc inject styles, Redoc runs a worker from a blob: scripts stay
    # our own files (the split view serves Swagger's start script as a file)
    path(
        "docs/",
        DOCS_CSP(SpectacularSwaggerSplitView.as_view(url_name="api:schema")),
        name="docs",
    ),
    path("redoc/", DOCS_CSP(LocalRedocView.as_view(url_name="api:schema")), name="redoc"),
    path("redoc/redoc.standalone.js", redoc_script, name="redoc-script"),
]
