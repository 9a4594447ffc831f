from django.urls import path

from tournaments import views
from tournaments.online import http as room_http
from tournaments.views import (
    accounts,
    game,
    jobs,
    live,
    online,
    people,
    play,
    reports,
    rounds,
    sheets,
)
from tournaments.views.entry_requests import URLS as ENTRY_REQUEST_URLS
from tournaments.views.merging import URLS as MERGING_URLS
from tournaments.views.online_tournament import URLS as ONLINE_TOURNAMENT_URLS
from tournaments.views.replays import URLS as REPLAY_URLS
from tournaments.views.rollouts import URLS as ROLLOUT_URLS
from tournaments.views.schedule import URLS as SCHEDULE_URLS

app_name = "tournaments"

urlpatterns = [
    path("", views.home, name="home"),
    path("tournaments/new/", views.tournament_new, name="tournament_new"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/edit/", views.tournament_edit, name="tournament_edit"),
    path("tournaments/<int:pk>/delete/", views.tournament_delete_page, name="tournament_delete"),
    path("tournaments/<int:pk>/players/", views.entries, name="entries"),
    path("tournaments/<int:pk>/do/<str:action>/", views.pair, name="pair"),
    path("tournaments/<int:pk>/print/", views.tournament_print, name="print"),
    path("tournaments/<int:pk>/statistics/", views.tournament_statistics, name="statistics"),
    path("tournaments/<int:pk>/live/", live.tournament_live, name="live"),
    path("tournaments/<int:pk>/hall/", live.tournament_hall, name="hall"),
    path("series/<int:pk>/", views.series_detail, name="series"),
    path("series/<int:pk>/quick/", views.enter_quick, name="enter_quick"),
    path("series/<int:pk>/record/", views.enter_record, name="enter_record"),
    path("series/<int:pk>/check/", views.record_check, name="record_check"),
    path("games/<int:pk>/", views.game_detail, name="game"),
    path("games/<int:pk>/correct/", views.game_correction, name="correct"),
    path("games/<int:pk>/analyse/", game.game_analyse, name="game_analyse"),
    path("games/<int:pk>/delete/", game.game_delete_page, name="game_delete"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    # the lobby (challenges, the user's rooms, the bot) and the game room's page
    path("play/", online.lobby, name="play"),
    path("play/challenges/<int:pk>/<str:token>/", online.challenge_link, name="challenge_link"),
    path("play/rooms/<int:pk>/", online.room_page, name="room"),
    path("play/rooms/<int:pk>/dice-check/", online.room_dice, name="room_dice"),
    path("play/<int:pk>/", play.play_game, name="play_game"),
    path("play/<int:pk>/record/", play.play_record, name="play_record"),
    # game rooms' JSON doors (docs/online.md); the WebSocket is tournaments/online/routing.py
    path("play/rooms/<int:pk>/state/", room_http.room_state_json, name="room-state"),
    path("play/rooms/<int:pk>/action/", room_http.room_action_json, name="room-action"),
    path("play/rooms/<int:pk>/steps/", room_http.room_steps_json, name="room-steps"),
    path(
        "play/rooms/<int:pk>/games/<int:number>/record/",
        room_http.room_game_record,
        name="room-game-record",
    ),
    # dirA: co-directors, pairs kept apart, the player search, entries, invitations
    path("tournaments/<int:pk>/people/", people.tournament_people, name="people"),
    path(
        "tournaments/<int:pk>/people/directors/<str:username>/remove/",
        people.director_remove,
        name="director_remove",
    ),
    path(
        "tournaments/<int:pk>/people/pairs/<int:pair_pk>/remove/",
        people.pair_remove,
        name="pair_remove",
    ),
    path("tournaments/<int:pk>/players/search/", people.player_search, name="player_search"),
    path("tournaments/<int:pk>/players/add/", people.entry_add, name="entry_add"),
    path(
        "tournaments/<int:pk>/players/<int:player_pk>/invite/", people.invitation_new, name="invite"
    ),
    path(
        "tournaments/<int:pk>/players/<int:player_pk>/invite/withdraw/",
        people.invitation_withdrawn,
        name="invite_withdraw",
    ),
    path(
        "tournaments/<int:pk>/players/<int:player_pk>/<str:action>/",
        people.entry_action,
        name="entry_action",
    ),
    path("invitations/<str:token>/", people.claim, name="claim"),
    # end dirA
    path("confirmations/", views.confirmations, name="confirmations"),
    path("confirmations/<int:pk>/<str:verdict>/", views.decide, name="decide"),
    path("series/<int:pk>/report/", reports.series_report_new, name="series_report"),
    path("reports/<int:pk>/", reports.report_detail, name="report"),
    path("reports/<int:pk>/<str:verdict>/", reports.report_decide, name="report_decide"),
    path("jobs/", jobs.job_list, name="jobs"),
    path("jobs/<int:pk>/", jobs.job_detail, name="job"),
    path("jobs/<int:pk>/again/", jobs.job_again, name="job_again"),
    path("jobs/import/players/", jobs.players_import, name="players_import"),
    path("jobs/import/tournament/", jobs.tournament_import, name="tournament_import"),
    path(
        "tournaments/<int:pk>/players/import/",
        jobs.tournament_players_import,
        name="tournament_players_import",
    ),
    path("series/<int:pk>/upload/", jobs.records_upload, name="records_upload"),
    path("tournaments/<int:pk>/jobs/<str:kind>/", jobs.tournament_job, name="tournament_job"),
    # dirB: rounds, scoresheets, printing (docs/director_rounds.md)
    path("tournaments/<int:pk>/round/", rounds.round_manage, name="round_last"),
    path("tournaments/<int:pk>/round/<int:number>/", rounds.round_manage, name="round_manage"),
    path("tournaments/<int:pk>/round/<int:number>/swap/", rounds.round_swap, name="round_swap"),
    path(
        "tournaments/<int:pk>/round/<int:number>/<str:action>/",
        rounds.round_action,
        name="round_action",
    ),
    path("series/<int:pk>/starter/", rounds.series_starter, name="series_starter"),
    path("series/<int:pk>/sheet/", rounds.series_sheet, name="series_sheet"),
    path("tournaments/<int:pk>/print/round/", sheets.print_round, name="print_last_round"),
    path("tournaments/<int:pk>/print/round/<int:number>/", sheets.print_round, name="print_round"),
    path("tournaments/<int:pk>/print/standings/", sheets.print_standings, name="print_standings"),
    # end dirB
    # accounts without a command line (services/accounts.py)
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/signup/sent/", accounts.signup_sent, name="signup_sent"),
    path("accounts/signup/again/", accounts.signup_again, name="signup_again"),
    path("accounts/confirm/<str:token>/", accounts.signup_confirm, name="signup_confirm"),
    path("staff/accounts/", accounts.account_list, name="accounts"),
    path("staff/accounts/<int:pk>/<str:action>/", accounts.account_access, name="account_access"),
]

# duplicates merged (and undone); players asking to play; a round robin paired ahead
urlpatterns += MERGING_URLS + ENTRY_REQUEST_URLS + SCHEDULE_URLS
urlpatterns += ONLINE_TOURNAMENT_URLS  # a tournament played online: the rooms' pages
urlpatterns += REPLAY_URLS  # the replays' positions, fetched once a reader steps
urlpatterns += ROLLOUT_URLS  # a game's decisions rolled out on request
