"""Tournaments played online, through the pages (docs/online.md, "Tournaments played
online"): a 4-player online Swiss of long nardy over 2 rounds and a 4-player online single
elimination of short backgammon with the cube. Players in separate browser contexts (one
on a phone, one in Czech) join from the header's notice and the tournament page and play
in their rooms; the other series are played by bot clients through the rooms' service
door. A player who never joins is forfeited when the window closes, and the director
reverses that forfeit on the live view with a reason. The hall view lists the live games
and opens one to watch. The standings, ratings and bracket equal those of the same results
entered by hand in a twin tournament."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.online import (
    ACTIONABLE,
    act,
    console_errors,
    seq,
    server_state,
    signed_in,
    synced,
    wait_seq_above,
)
from tests.tournaments.online_play import act as room_action
from tests.tournaments.online_play import play_out, seeded
from tournaments.models import (
    Format,
    Player,
    PlayerRating,
    Room,
    RoomStatus,
    Series,
    SeriesRoom,
    SeriesStatus,
    Tournament,
)
from tournaments.selectors.standings import standings_for_tournament
from tournaments.services.directing import tournament_update
from tournaments.services.online.rooms import room_sweep_timeouts
from tournaments.services.pairings import bracket_create, entries_seed, round_generate
from tournaments.services.results import game_enter_quick
from tournaments.services.setup import entry_register, series_forfeit, tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ("Ann Nová", "Bob Král", "Cyril Malý", "Dana Veselá")


@pytest.fixture(autouse=True)
def _fast_polling(settings: Any) -> None:
    settings.ROOM_POLL_MS = 250
    settings.ONLINE_ROOMS_CACHE_SECONDS = 0  # the rooms as they are, not a shared copy


def _people() -> tuple[User, list[Player]]:
    director = User.objects.create_user("boss", password="pw-boss-123")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    players = []
    for name in NAMES:
        user = User.objects.create_user(name.split()[0].lower(), password="pw-123-456")
        players.append(Player.objects.create(name=name, user=user))
    return director, players


def _enter(t: Tournament, players: list[Player]) -> None:
    for p in players:
        entry_register(tournament=t, player=p)
    entries_seed(tournament=t, order=players)


def _bots(link: SeriesRoom) -> Room:
    """The series played by two bot clients through the rooms' door: whoever is on turn
    first resigns each game (scored by the position, L9)."""
    users = (link.series.player1.user, link.series.player2.user)

    def choose(state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return ("resign", {}) if "resign" in state["can"] else ("roll", {})

    room = Room.objects.get(pk=link.room_id)
    if room.status == RoomStatus.WAITING:
        room = seeded(room, *users)
    return play_out(room, users, choose=choose)


def _colours(room_id: int, one: Page, two: Page) -> dict[str, Page]:
    room = Room.objects.get(pk=room_id)
    return {"white": one if room.a_white else two, "black": two if room.a_white else one}


def _resign_on_page(room_id: int, pages: dict[str, Page]) -> None:
    loser = pages[server_state(room_id)["turn"]]
    synced(loser, room_id)
    before = seq(loser)
    loser.locator("#room-resign summary").click()
    loser.locator("#room-resign-confirm").click()
    wait_seq_above(loser, before)


def _no_overflow(page: Page) -> None:
    """Nothing wider than a phone's screen: no sideways scrolling of the page."""
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    culprits = page.evaluate("""() => Array.from(document.querySelectorAll('body *'))
      .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)""")
    assert wide <= 1, f"the page is {wide} px wider than the screen: {culprits}"


def _standings(t: Tournament) -> list[tuple[object, ...]]:
    rows = standings_for_tournament(tournament=t)
    return [(r.player_name, r.played, r.won, r.lost, r.points, r.game_points_for,
             r.game_points_against, r.rank) for r in rows]  # fmt: skip


def _ratings(variant: str) -> dict[str, tuple[float, int]]:
    rows = PlayerRating.objects.filter(variant=variant).select_related("player")
    return {r.player.name: (round(r.rating, 6), r.experience) for r in rows}


def _join(page: Page, name: str) -> None:
    """Follow the page's link to the player's room (once more after a 503: SQLite's test
    database locked under the other pages' requests)."""
    page.get_by_role("link", name=name).first.click()
    for _ in range(3):
        try:
            expect(page.locator("#room-status")).to_be_visible(timeout=5_000)
            return
        except AssertionError:
            page.reload()
    expect(page.locator("#room-status")).to_be_visible()


def _open(context: BrowserContext, url: str, errors: list[str]) -> Page:
    page = context.new_page()
    console_errors(page, errors)
    page.goto(url)
    return page


def test_an_online_swiss_of_long_nardy(live_server: Any, browser: Browser) -> None:
    director, players = _people()
    ann = players[0]
    errors: list[str] = []
    base = live_server.url
    boss = signed_in(browser, live_server, director)
    # the director creates the tournament as played online on the creation page
    form = _open(boss, f"{base}/tournaments/new/", errors)
    form.locator("#id_name").fill("Online Swiss")
    form.locator("#id_start_date").fill("2026-12-06")
    form.locator("#id_format").select_option("swiss")
    form.locator("#id_series_length").fill("1")
    form.locator("#id_swiss_rounds").fill("2")
    form.locator("#id_published").check()
    form.locator("#id_online-enabled").check()
    form.locator("#id_online-window_minutes").fill("10")
    form.locator("#id_online-clock").select_option("none")
    form.get_by_role("button", name="Create the tournament").click()
    expect(form.locator("main")).to_contain_text("The tournament is created.")
    online = Tournament.objects.get(name="Online Swiss")
    assert online.online_play.window_minutes == 10 and online.online_play.clock["clock"] == "none"
    _enter(online, players)
    round_generate(tournament=online)
    links = {(x.series.player1_id, x.series.player2_id): x
             for x in SeriesRoom.objects.filter(series__tournament=online)}  # fmt: skip
    assert len(links) == 2
    mine = next(x for x in links.values() if ann.pk in (x.series.player1_id, x.series.player2_id))
    other = next(x for x in links.values() if x is not mine)
    opponent = mine.series.player2 if mine.series.player1_id == ann.pk else mine.series.player1
    assert opponent is not None and opponent.user is not None

    # Ann, on a phone, sees the header's notice and joins from the tournament page; her
    # opponent's browser is in Czech
    phone = signed_in(browser, live_server, ann.user, width=390)
    czech = signed_in(browser, live_server, opponent.user, locale="cs-CZ")
    ann_page = _open(phone, f"{base}/tournaments/{online.pk}/", errors)
    expect(ann_page.locator("#nav-room")).to_contain_text("Your tournament game is ready")
    _no_overflow(ann_page)
    _join(ann_page, "Join your game")
    opp_page = _open(czech, f"{base}/tournaments/{online.pk}/", errors)
    _join(opp_page, "Jít ke své hře")
    expect(ann_page.locator("#room-status")).to_contain_text("Game 1", timeout=15_000)

    # the hall view lists both live games; a visitor opens one to watch
    visitor = signed_in(browser, live_server, None)
    hall = _open(visitor, f"{base}/tournaments/{online.pk}/hall/", errors)
    expect(hall.locator(".hall-watch")).to_have_count(2)
    hall.locator(f'.hall-watch[href="/play/rooms/{mine.room_id}/"]').click()
    expect(hall.locator("#room-board svg")).to_be_visible()

    # the other series: its first player's bot client joins, the second never comes
    absent_one = other.series.player1
    room_action(other.room, absent_one.user, "seed", seed="cd" * 16)
    # a few turns on the pages, then the side to move resigns (a 1-point series)
    for _ in range(4):
        pages = _colours(mine.room_id, *((ann_page, opp_page) if mine.room.a_user_id == ann.user_id
                                         else (opp_page, ann_page)))  # fmt: skip
        page = pages[server_state(mine.room_id)["turn"]]
        synced(page, mine.room_id)
        page.wait_for_function(ACTIONABLE)
        assert act(page) is not None
    pages = _colours(mine.room_id, *((ann_page, opp_page) if mine.room.a_user_id == ann.user_id
                                     else (opp_page, ann_page)))  # fmt: skip
    _resign_on_page(mine.room_id, pages)
    expect(ann_page.locator("#room-status")).to_contain_text("The series is over")
    assert Series.objects.get(pk=mine.series_id).status == SeriesStatus.FINISHED

    # the window closes (the rooms' sweep): the absent player loses by forfeit; the
    # director's live view marks it and reverses it with a reason
    room_sweep_timeouts(now=other.window_closes + timedelta(seconds=1))
    assert Series.objects.get(pk=other.series_id).status == SeriesStatus.FORFEITED
    live = _open(boss, f"{base}/tournaments/{online.pk}/rooms/", errors)
    row = live.locator(f"#room-row-{other.room_id}")
    absent_name = other.series.player2.name
    expect(row).to_contain_text(f"{absent_name} did not show: lost by forfeit")
    expect(live.locator(f"#room-row-{mine.room_id}")).to_contain_text("finished")
    row.locator("input[name=reason]").fill("the player's connection failed; agreed by both")
    row.get_by_role("button", name="Reverse the forfeit: a new room").click()
    expect(live.locator("main")).to_contain_text("The forfeit is reversed")
    again = SeriesRoom.objects.get(series_id=other.series_id)
    assert again.room_id != other.room_id and again.reversed_by == director
    expect(live.locator(f"#room-row-{again.room_id}")).to_contain_text(
        "Forfeit reversed by boss: the player's connection failed"
    )
    expect(live.locator(f"#room-row-{again.room_id}")).to_contain_text("not joined")
    _bots(again)  # now both play, by bot clients
    assert Series.objects.get(pk=other.series_id).status == SeriesStatus.FINISHED

    # round 2, played by bot clients; the second round's rooms open on pairing
    round_generate(tournament=online)
    second = list(SeriesRoom.objects.filter(series__round__number=2, series__tournament=online))
    assert len(second) == 2
    for link in second:
        _bots(link)
    live.goto(f"{base}/tournaments/{online.pk}/rooms/2/")
    expect(live.locator("#online-rooms tbody tr")).to_have_count(2)
    # the director's view and the tournament page on the phone, in Czech too
    refused = phone.request.get(f"{base}/tournaments/{online.pk}/rooms/")  # not a director
    assert refused.status == 403
    phone_boss = signed_in(browser, live_server, director, width=390, locale="cs-CZ")
    small = _open(phone_boss, f"{base}/tournaments/{online.pk}/rooms/1/", errors)
    expect(small.locator("h1")).to_contain_text("Herní místnosti")
    _no_overflow(small)

    # the same results by hand: the same standings and ratings
    online_standings = _standings(online)
    online_ratings = _ratings("long")
    tournament_update(tournament=online, rated=False)  # its ratings undone
    twin = tournament_create(
        name="By hand", start_date=date(2026, 12, 6), variant="long", format=Format.SWISS,
        series_mode="points", series_length=1, swiss_rounds=2,
    )  # fmt: skip
    _enter(twin, players)
    round_generate(tournament=twin)
    _by_hand_round(online, twin, 1)
    round_generate(tournament=twin)
    _by_hand_round(online, twin, 2)
    assert [r[1:] for r in _standings(twin)] == [r[1:] for r in online_standings]
    assert [r[0] for r in _standings(twin)] == [r[0] for r in online_standings]
    assert _ratings("long") == online_ratings
    assert errors == []
    for c in (boss, phone, czech, visitor, phone_boss):
        c.close()


def _by_hand_round(online: Tournament, twin: Tournament, number: int) -> None:
    """Round ``number`` of the online tournament entered by hand into the twin's."""
    for s in Series.objects.filter(tournament=online, round__number=number).order_by(
        "finished_at", "pk"
    ):  # fmt: skip
        pair = {s.player1_id, s.player2_id}
        mate = next(m for m in Series.objects.filter(tournament=twin, round__number=number)
                    if {m.player1_id, m.player2_id} == pair)  # fmt: skip
        assert (mate.player1_id, mate.player2_id) == (s.player1_id, s.player2_id)
        _copy(s, mate)


def _copy(s: Series, mate: Series) -> None:
    if s.player2 is None:
        return
    if s.status == SeriesStatus.FORFEITED:
        assert s.winner is not None
        series_forfeit(series=mate, winner=s.winner)
        return
    for g in s.games.order_by("number"):
        game_enter_quick(series=mate, white=g.white, winner=g.winner, kind=g.kind,
                         ended=g.ended, cube=g.cube, number=g.number)  # fmt: skip


def test_an_online_knockout_of_short_backgammon(live_server: Any, browser: Browser) -> None:
    director, players = _people()
    errors: list[str] = []
    base = live_server.url

    def knockout(name: str) -> Tournament:
        t = tournament_create(
            name=name, start_date=date(2026, 12, 6), variant="short",
            format=Format.SINGLE_ELIMINATION, series_mode="points", series_length=3, cube=True,
            first_move="lot",  # S2: played online, every game opens with a lot
            lengths_by_stage={"final": 5}, published=True,
        )  # fmt: skip
        t.directors.add(director)
        _enter(t, players)
        return t

    online = knockout("Online knockout")
    from tournaments.services.online.tournament_rooms import online_play_set

    online_play_set(tournament=online, window_minutes=15, clock={"clock": "none"})
    bracket_create(tournament=online)
    semis = list(SeriesRoom.objects.filter(series__tournament=online).order_by("series__slot"))
    assert len(semis) == 2 and all(x.room.settings["length"] == 3 for x in semis)
    assert all(x.room.settings["cube"] and x.room.settings["crawford"] for x in semis)

    # the first semifinal on the pages, in Czech: the first who may double doubles, the
    # other drops; then each game resigned by the side on turn
    first = semis[0]
    one, two = first.series.player1.user, first.series.player2.user
    contexts = [signed_in(browser, live_server, u, locale="cs-CZ") for u in (one, two)]
    pages = []
    for context in contexts:
        page = _open(context, f"{base}/tournaments/{online.pk}/", errors)
        expect(page.locator("#my-room")).to_contain_text("Vaše hra")
        _join(page, "Jít ke své hře")
        pages.append(page)
    expect(pages[0].locator("#room-status")).to_contain_text("1", timeout=15_000)
    synced(pages[0], first.room_id)
    doubled = False
    for _ in range(20):
        colours = _colours(first.room_id, pages[0], pages[1])
        s = server_state(first.room_id)
        page = colours[s["turn"]]
        synced(page, first.room_id)
        if page.locator("#room-double").is_visible():
            before = seq(page)
            page.locator("#room-double").click()
            wait_seq_above(page, before)
            taker = colours["black" if s["turn"] == "white" else "white"]
            synced(taker, first.room_id)
            before = seq(taker)
            taker.locator("#room-drop").click()
            wait_seq_above(taker, before)
            doubled = True
            break
        page.wait_for_function(ACTIONABLE)
        assert act(page) is not None
    assert doubled
    # the visitor's hall view lists the live games while the series goes on
    visitor = signed_in(browser, live_server, None, width=390)
    hall = _open(visitor, f"{base}/tournaments/{online.pk}/hall/", errors)
    expect(hall.locator(".hall-watch")).to_have_count(2)
    _no_overflow(hall)
    for _ in range(6):
        if Room.objects.get(pk=first.room_id).status != RoomStatus.PLAYING:
            break
        _resign_on_page(first.room_id, _colours(first.room_id, pages[0], pages[1]))
    assert Room.objects.get(pk=first.room_id).status == RoomStatus.FINISHED
    _bots(semis[1])

    # the winners move on: the final's room opens with the final's length
    final = SeriesRoom.objects.filter(series__tournament=online).exclude(
        pk__in=[x.pk for x in semis]).get()  # fmt: skip
    winners = {Series.objects.get(pk=x.series_id).winner_id for x in semis}
    assert {final.series.player1_id, final.series.player2_id} == winners
    assert final.room.settings["length"] == 5
    boss = signed_in(browser, live_server, director)
    live = _open(boss, f"{base}/tournaments/{online.pk}/rooms/", errors)
    expect(live.locator(f"#room-row-{final.room_id}")).to_contain_text("to 5")
    expect(live.locator(f"#room-row-{final.room_id}")).to_contain_text("waiting")
    _bots(final)
    assert Series.objects.get(pk=final.series_id).status == SeriesStatus.FINISHED
    champion = Series.objects.get(pk=final.series_id).winner
    assert champion is not None
    tournament_page = _open(boss, f"{base}/tournaments/{online.pk}/", errors)
    expect(tournament_page.locator("main")).to_contain_text(champion.name)
    expect(tournament_page.locator("#live-games")).to_have_count(0)  # nothing live now

    # the same results by hand: the same bracket, standings and ratings
    bracket = {s.slot: (s.player1_id, s.player2_id, s.winner_id, s.score1, s.score2)
               for s in Series.objects.filter(tournament=online)}  # fmt: skip
    online_standings = _standings(online)
    online_ratings = _ratings("short")
    tournament_update(tournament=online, rated=False)
    twin = knockout("Knockout by hand")
    bracket_create(tournament=twin)
    for done in Series.objects.filter(tournament=online).order_by("finished_at", "pk"):
        _copy(done, Series.objects.get(tournament=twin, slot=done.slot))
    assert {s.slot: (s.player1_id, s.player2_id, s.winner_id, s.score1, s.score2)
            for s in Series.objects.filter(tournament=twin)} == bracket  # fmt: skip
    assert _standings(twin) == online_standings
    assert _ratings("short") == online_ratings
    assert errors == []
    for c in (*contexts, visitor, boss):
        c.close()
