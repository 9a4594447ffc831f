"""A tournament played online on its pages and in the API (docs/online.md, "Tournaments
played online"): the setting on the creation and settings page and in the API (checked,
any JSON refused without a server error), the rooms on the tournament, player, hall and
director's pages, the header's notice and the e-mail, a no-show's forfeit reversed with
a reason, a knockout's next stage opening its room with the stage's length, and a
withdrawn player's rooms closed."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.tournaments.helpers import tournament_data
from tests.tournaments.online_play import act, play_out, seeded
from tournaments.models import (
    Format,
    MailPreference,
    OnlinePlay,
    Player,
    Room,
    RoomStatus,
    Series,
    SeriesRoom,
    SeriesStatus,
    Tournament,
)
from tournaments.services.errors import ApplicationError
from tournaments.services.online.rooms import room_sweep_timeouts
from tournaments.services.online.tournament_rooms import no_show_reverse, online_play_set
from tournaments.services.pairings import (
    bracket_create,
    entries_seed,
    entry_withdraw,
    round_generate,
)
from tournaments.services.setup import entry_register, tournament_create

EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}
NAMES = ("Ann Nová", "Bob Král", "Cyril Malý", "Dana Veselá")
SCALARS = (st.none() | st.booleans() | st.integers()
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8))  # fmt: skip
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=6,
)  # fmt: skip


@pytest.fixture(autouse=True)
def _exact_rooms(settings: Any) -> None:
    settings.ONLINE_ROOMS_CACHE_SECONDS = 0  # the rooms as they are, not a shared copy


@pytest.fixture
def people(db, no_throttle) -> dict[str, Any]:
    director = User.objects.create_user("boss", password="x" * 12, email="boss@example.com")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    players = []
    for n, name in enumerate(NAMES):
        user = User.objects.create_user(f"user{n}", password="x" * 12, email=f"u{n}@example.com")
        players.append(Player.objects.create(name=name, user=user))
    return {"director": director, "players": players}


def _tournament(people: dict[str, Any], fmt: str = Format.SWISS, **extra: Any) -> Tournament:
    settings_ = {"swiss_rounds": 2} if fmt == Format.SWISS else {}
    t = tournament_create(
        name=extra.pop("name", "Online cup"), start_date=date(2026, 12, 6),
        variant=extra.pop("variant", "long"),
        format=fmt, series_mode="points", series_length=1, published=True,
        **settings_, **extra,
    )  # fmt: skip
    t.directors.add(people["director"])
    for p in people["players"]:
        entry_register(tournament=t, player=p)
    entries_seed(tournament=t, order=people["players"])
    return t


def _client(user: User | None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _resign_first(room: Room, users: tuple[User, ...]) -> Room:
    """Whoever is on turn first resigns each game: a short series."""

    def choose(state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return ("resign", {}) if "resign" in state["can"] else ("roll", {})

    return play_out(seeded(room, *users), users, choose=choose)


FORM = tournament_data(
    name="Online cup",
    start_date="2026-12-06",
    format="swiss",
    series_length="1",
    swiss_rounds="2",
    published="",
)


def test_the_setting_on_the_creation_and_settings_page(people: dict[str, Any]) -> None:
    c = _client(people["director"])
    page = c.get(reverse("tournaments:tournament_new"), **EN)
    assert b'name="online-enabled"' in page.content and b"Played online" in page.content
    wrong = c.post(reverse("tournaments:tournament_new"), FORM | {
        "online-enabled": "on", "online-window_minutes": "0", "online-clock": "live",
        "online-timeout_costs": "game"}, **EN)  # fmt: skip
    assert wrong.status_code == 400 and not Tournament.objects.exists()
    made = c.post(reverse("tournaments:tournament_new"), FORM | {
        "online-enabled": "on", "online-window_minutes": "10", "online-clock": "live",
        "online-delay_s": "5", "online-reserve_s": "90", "online-timeout_costs": "series"},
        **EN)  # fmt: skip
    assert made.status_code == 302, re.findall(r"error[^>]*>([^<]*)", made.content.decode())
    t = Tournament.objects.get()
    play = OnlinePlay.objects.get(tournament=t)
    assert play.window_minutes == 10 and play.window_until is None
    assert play.clock == {"clock": "live", "delay_s": 5, "reserve_s": 90, "days": 3,
                          "timeout_costs": "series"}  # fmt: skip
    # the settings page shows it, a past end of the window is refused, switching it off
    edit = reverse("tournaments:tournament_edit", args=[t.pk])
    assert re.search(r'name="online-enabled"[^>]*checked', c.get(edit, **EN).content.decode())
    past = (timezone.localtime() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    refused = c.post(edit, FORM | {"online-enabled": "on", "online-window_minutes": "10",
                                   "online-window_until": past, "online-clock": "none",
                                   "online-timeout_costs": "game"}, **EN)  # fmt: skip
    assert refused.status_code == 400 and b"must be in the future" in refused.content
    assert OnlinePlay.objects.get(tournament=t).clock["clock"] == "live"  # nothing changed
    later = (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    slow = {
        "online-enabled": "on",
        "online-window_minutes": "10",
        "online-window_until": later,
        "online-clock": "correspondence",
        "online-days": "2",
        "online-timeout_costs": "game",
    }
    kept = c.post(edit, FORM | slow, **EN)
    assert kept.status_code == 302
    play = OnlinePlay.objects.get(tournament=t)
    assert play.window_until is not None and play.clock["clock"] == "correspondence"
    assert c.post(edit, FORM, **EN).status_code == 302
    assert not OnlinePlay.objects.filter(tournament=t).exists()
    # in Czech
    assert b"Hraje se online" in c.get(edit, HTTP_ACCEPT_LANGUAGE="cs").content


def test_the_setting_in_the_api(people: dict[str, Any]) -> None:
    api = APIClient()
    api.force_authenticate(people["director"])
    body = {"name": "Online cup", "start_date": "2026-12-06", "variant": "short",
            "format": "single_elimination", "series_length": 3, "first_move": "lot",
            "online": {"window_minutes": 20, "clock": "live", "reserve_s": 30}}  # fmt: skip
    made = api.post("/api/tournaments/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["online"] == {"window_minutes": 20, "window_until": None,
                                     "clock": "live", "delay_s": 12, "reserve_s": 30,
                                     "days": 3, "timeout_costs": "game",
                                     "pair_next": False}  # fmt: skip
    pk = made.json()["id"]
    bad = api.patch(f"/api/tournaments/{pk}/", {"online": {"window_minutes": 0}}, format="json")
    assert bad.status_code == 400 and "online" in bad.json()["errors"]
    old = {"online": {"window_until": "2020-01-01T10:00:00Z"}}
    past = api.patch(f"/api/tournaments/{pk}/", old, format="json")
    assert past.status_code == 400 and past.json()["code"] == "online-window-until-past"
    assert (
        api.patch(f"/api/tournaments/{pk}/", {"venue": "Brno"}, format="json").json()["online"][
            "reserve_s"
        ]
        == 30
    )  # left out: unchanged
    off = api.patch(f"/api/tournaments/{pk}/", {"online": None}, format="json")
    assert off.status_code == 200 and off.json()["online"] is None
    assert not OnlinePlay.objects.exists()
    assert api.get(f"/api/tournaments/{pk}/rooms/").json() == []
    assert api.get(f"/api/tournaments/{pk}/rooms/?round=x").status_code == 400


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(online=JSON, query=st.text(max_size=12))
def test_any_json_as_the_setting_is_refused_or_taken(people: dict[str, Any], online: object,
                                                     query: str) -> None:  # fmt: skip
    api = APIClient()
    api.force_authenticate(people["director"])
    t = Tournament.objects.filter(name="Hostile").first() or _tournament(people, name="Hostile")
    answer = api.patch(f"/api/tournaments/{t.pk}/", {"online": online}, format="json")
    assert answer.status_code in (200, 400), answer.content
    if answer.status_code == 400:
        assert answer.json().get("code"), answer.content
    rooms = api.get(f"/api/tournaments/{t.pk}/rooms/", {"round": query, "live": query})
    assert rooms.status_code in (200, 400), rooms.content


def test_rooms_on_the_pages_and_in_the_api(
    people: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    t = _tournament(people)
    online_play_set(tournament=t, window_minutes=10, clock={"clock": "live", "reserve_s": 60})
    ann = people["players"][0]
    MailPreference.objects.create(user=ann.user, room_opened=True)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = round_generate(tournament=t)
    links = list(SeriesRoom.objects.filter(series__round=rnd).order_by("series__table"))
    assert len(links) == 2
    assert [m.to for m in mail.outbox] == [[ann.user.email]]  # the one who asked for it
    assert f"/play/rooms/{links[0].room_id}/" in mail.outbox[0].body or (
        f"/play/rooms/{links[1].room_id}/" in mail.outbox[0].body
    )
    assert "://" in mail.outbox[0].body  # a whole address
    mine = next(x for x in links if ann.user_id in (x.room.a_user_id, x.room.b_user_id))
    # the player: the header's notice, the tournament page and their own page
    c = _client(ann.user)
    page = c.get(reverse("tournaments:tournament", args=[t.pk]), **EN).content.decode()
    room_url = reverse("tournaments:room", args=[mine.room_id])
    assert 'id="nav-room"' in page and f'href="{room_url}"' in page
    assert "Join your game" in page and 'id="live-games"' in page
    player_page = c.get(reverse("tournaments:player", args=[ann.pk]), **EN).content.decode()
    assert "Join your game" in player_page and room_url in player_page
    # a visitor sees the live games to watch, not a game to join
    visitor = _client(None).get(reverse("tournaments:tournament", args=[t.pk]), **EN)
    assert b"Join your game" not in visitor.content and b"Watch " in visitor.content
    hall = _client(None).get(reverse("tournaments:hall", args=[t.pk]), **EN).content.decode()
    assert hall.count('class="hall-watch"') == 2 and room_url in hall
    # the API: the rooms and their state
    rows = APIClient().get(f"/api/tournaments/{t.pk}/rooms/").json()
    assert [r["room"] for r in rows] == [x.room_id for x in links]
    assert rows[0]["status"] == "waiting" and rows[0]["player1"]["clock_ms"] == 60_000
    assert rows[0]["url"] == reverse("tournaments:room", args=[links[0].room_id])
    # one series is played, the other's second player never comes
    played, absent = links
    users = (played.series.player1.user, played.series.player2.user)
    _resign_first(played.room, users)
    act(absent.room, absent.series.player1.user, "seed", seed="ab" * 16)
    room_sweep_timeouts(now=absent.window_closes + timedelta(seconds=1))
    series = Series.objects.get(pk=absent.series_id)
    assert series.status == SeriesStatus.FORFEITED
    director = _client(people["director"])
    view = director.get(reverse("tournaments:online_rooms", args=[t.pk]), **EN).content.decode()
    no_show = absent.series.player2.name
    assert f"{no_show} did not show: lost by forfeit" in view and "Reverse the forfeit" in view
    live = APIClient().get(f"/api/tournaments/{t.pk}/rooms/?live=1").json()
    assert live == []
    every = {r["series"]: r for r in APIClient().get(f"/api/tournaments/{t.pk}/rooms/").json()}
    assert every[absent.series_id]["no_show"] == no_show
    # a player may not reverse it; the director must say why
    assert _client(ann.user).post(reverse("tournaments:forfeit_reverse", args=[series.pk]),
                                  {"reason": "x"}).status_code == 403  # fmt: skip
    with pytest.raises(ApplicationError) as refused:
        no_show_reverse(series=series, by=people["director"], reason=" ")
    assert refused.value.code == "no-show-reason"
    answer = director.post(reverse("tournaments:forfeit_reverse", args=[series.pk]),
                           {"reason": "the server was down"}, **EN)  # fmt: skip
    assert answer.status_code == 302
    series.refresh_from_db()
    link = SeriesRoom.objects.get(series=series)
    assert series.status == SeriesStatus.SCHEDULED and series.winner is None
    assert link.room_id != absent.room_id and link.room.status == RoomStatus.WAITING
    assert link.reversed_by == people["director"] and link.reversal_reason == "the server was down"
    again = director.get(reverse("tournaments:online_round_rooms", args=[t.pk, 1]), **EN)
    assert "Forfeit reversed by boss: the server was down" in again.content.decode()
    with pytest.raises(ApplicationError) as refused:
        no_show_reverse(series=series, by=people["director"], reason="again")
    assert refused.value.code == "no-show-none"
    # in Czech
    cs = director.get(reverse("tournaments:online_rooms", args=[t.pk]),
                      HTTP_ACCEPT_LANGUAGE="cs").content.decode()  # fmt: skip
    assert "Herní místnosti" in cs


def test_the_e_mail_setting(people: dict[str, Any]) -> None:
    user = people["players"][0].user
    c = _client(user)
    url = reverse("tournaments:account_settings")
    assert b'name="room_opened"' in c.get(url, **EN).content
    assert c.post(url, {"room_opened": "on"}, **EN).status_code == 302
    assert MailPreference.objects.get(user=user).room_opened
    assert c.post(url, {}, **EN).status_code == 302
    assert not MailPreference.objects.get(user=user).room_opened
    assert _client(None).get(url).status_code == 302  # sign in first


def test_a_knockout_moves_on_and_a_withdrawal_closes_rooms(people: dict[str, Any]) -> None:
    t = _tournament(people, fmt=Format.SINGLE_ELIMINATION, variant="short",
                    lengths_by_stage={"final": 3}, cube=True)  # fmt: skip
    with pytest.raises(ApplicationError) as refused:  # S2: every game opens with a lot
        online_play_set(tournament=t, window_minutes=10, clock={"clock": "none"})
    assert refused.value.code == "online-first-move-lot"
    Tournament.objects.filter(pk=t.pk).update(first_move="lot")
    t.refresh_from_db()
    online_play_set(tournament=t, window_minutes=10, clock={"clock": "none"})
    bracket_create(tournament=t)
    semis = list(SeriesRoom.objects.filter(series__tournament=t).order_by("series__slot"))
    assert len(semis) == 2 and all(x.room.settings["length"] == 1 for x in semis)
    assert all(x.room.settings["cube"] for x in semis)
    first = semis[0]
    _resign_first(first.room, (first.series.player1.user, first.series.player2.user))
    assert SeriesRoom.objects.filter(series__tournament=t).count() == 2  # the final waits
    second = semis[1]
    _resign_first(second.room, (second.series.player1.user, second.series.player2.user))
    final = SeriesRoom.objects.filter(series__tournament=t).exclude(
        pk__in=[x.pk for x in semis]).get()  # fmt: skip
    winners = {Series.objects.get(pk=x.series_id).winner_id for x in semis}
    assert {final.series.player1_id, final.series.player2_id} == winners
    assert final.room.settings["length"] == 3 and final.room.status == RoomStatus.WAITING
    # a finalist withdraws: the final's room closes, the series is forfeited
    leaver = final.series.player1
    entry_withdraw(tournament=t, player=leaver)
    assert Room.objects.get(pk=final.room_id).status == RoomStatus.ABORTED
    assert Series.objects.get(pk=final.series_id).status == SeriesStatus.FORFEITED


def test_the_rooms_are_shared_for_a_moment(people: dict[str, Any], settings: Any) -> None:
    """Everybody watching a round reads one copy of its rooms for
    ONLINE_ROOMS_CACHE_SECONDS; 0 reads them afresh."""
    from tournaments.services.online.room_lists import tournament_rooms_shared

    t = _tournament(people)
    online_play_set(tournament=t, window_minutes=10, clock={"clock": "none"})
    round_generate(tournament=t)
    settings.ONLINE_ROOMS_CACHE_SECONDS = 60
    first = tournament_rooms_shared(tournament=t)
    assert [r.status for r in first] == ["waiting", "waiting"]
    link = SeriesRoom.objects.get(room_id=first[0].room_id)
    seeded(link.room, link.series.player1.user, link.series.player2.user)
    assert [r.status for r in tournament_rooms_shared(tournament=t)] == ["waiting", "waiting"]
    settings.ONLINE_ROOMS_CACHE_SECONDS = 0
    assert [r.status for r in tournament_rooms_shared(tournament=t)] == ["playing", "waiting"]
