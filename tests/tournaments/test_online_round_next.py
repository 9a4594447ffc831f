"""A tournament played online (docs/online.md, "Tournaments played online"): the next
round paired by itself when the last series of a round ends (the setting, off by
default, on the settings page and in the API; a Swiss, a round robin's rounds paired
ahead; never twice, also when the last two results come at once), and a room neither
player joined by the close of its window decided by the director: both lose by forfeit,
or more time to start, each with a reason kept; through the services, the director's
live view (hostile input refused) and the API."""

from __future__ import annotations

import re
import threading
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.core import mail
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.tournaments.helpers import tournament_data
from tests.tournaments.online_play import act, play_out, seeded
from tournaments.models import (
    Format,
    MailPreference,
    OnlinePlay,
    Player,
    Room,
    RoomDecision,
    RoomStatus,
    Round,
    Series,
    SeriesRoom,
    SeriesStatus,
    Tournament,
)
from tournaments.selectors.standings import standings_for_tournament
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.online.rooms import room_sweep_timeouts
from tournaments.services.online.series import series_end
from tournaments.services.online.tournament_rooms import (
    no_show_both_forfeit,
    no_show_more_time,
    no_show_reverse,
    online_play_set,
    round_next_by_itself,
)
from tournaments.services.pairings import entries_seed, round_generate
from tournaments.services.schedule import round_publish, round_robin_pair_all
from tournaments.services.setup import entry_register, series_forfeit, tournament_create

EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}
CS: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "cs"}
NAMES = ("Ann Nová", "Bob Král", "Cyril Malý", "Dana Veselá")


@pytest.fixture(autouse=True)
def _exact_rooms(settings: Any) -> None:
    settings.ONLINE_ROOMS_CACHE_SECONDS = 0  # the rooms as they are, not a shared copy


def _people() -> dict[str, Any]:
    director = User.objects.create_user("boss", password="x" * 12, email="boss@example.com")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    players = []
    for n, name in enumerate(NAMES):
        user = User.objects.create_user(f"user{n}", password="x" * 12, email=f"u{n}@example.com")
        players.append(Player.objects.create(name=name, user=user))
    return {"director": director, "players": players}


@pytest.fixture
def people(db, no_throttle) -> dict[str, Any]:
    return _people()


def _tournament(people: dict[str, Any], fmt: str = Format.SWISS, **extra: Any) -> Tournament:
    settings_ = {"swiss_rounds": extra.pop("swiss_rounds", 2)} if fmt == Format.SWISS else {}
    t = tournament_create(
        name="Online cup", start_date=date(2026, 12, 6), variant="long", format=fmt,
        series_mode="points", series_length=1, published=True, **settings_, **extra,
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


def _links(rnd: Round) -> list[SeriesRoom]:
    return list(
        SeriesRoom.objects.filter(series__round=rnd)
        .select_related("room", "series__player1__user", "series__player2__user")
        .order_by("series__table")
    )


def _resign_first(link: SeriesRoom) -> Room:
    """Whoever is on turn first resigns: a series of one game played in its room."""
    users = (link.series.player1.user, link.series.player2.user)

    def choose(state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return ("resign", {}) if "resign" in state["can"] else ("roll", {})

    return play_out(seeded(link.room, *users), users, choose=choose)


def _one_shows(link: SeriesRoom) -> None:
    """The first player joins, the second never does; the window closes: the sweep."""
    act(link.room, link.series.player1.user, "seed", seed="ab" * 16)
    room_sweep_timeouts(now=link.window_closes + timedelta(seconds=1))


# --- the next round by itself ------------------------------------------------------------


def test_the_next_swiss_round_is_paired_when_the_last_series_ends(
    people: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    t = _tournament(people)
    online_play_set(tournament=t, window_minutes=10, clock={"clock": "none"}, pair_next=True)
    ann = people["players"][0]
    MailPreference.objects.create(user=ann.user, room_opened=True)
    with django_capture_on_commit_callbacks(execute=True):
        first = round_generate(tournament=t)
        played, absent = _links(first)
        _resign_first(played)  # one series ends in its room: the round goes on
    assert t.rounds.count() == 1
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _one_shows(absent)  # the last series ends by a no-show's forfeit
    assert Series.objects.get(pk=absent.series_id).status == SeriesStatus.FORFEITED
    second = t.rounds.get(number=2)
    rooms = _links(second)
    assert len(rooms) == 2 and all(x.room.status == RoomStatus.WAITING for x in rooms)
    assert [m.to for m in mail.outbox] == [[ann.user.email]]  # the players are told
    # the last round: its double forfeits end the tournament's rounds, nothing more
    with django_capture_on_commit_callbacks(execute=True):
        for link in rooms:
            no_show_both_forfeit(series=link.series, by=people["director"], reason="nobody came",
                                 now=link.window_closes + timedelta(minutes=1))  # fmt: skip
    assert t.rounds.count() == 2  # swiss_rounds = 2
    boss = _client(people["director"])
    view = boss.get(reverse("tournaments:online_rooms", args=[t.pk]), **CS).content.decode()
    assert "Další kolo se spáruje samo, až skončí poslední série tohoto." in view
    assert round_next_by_itself(tournament_id=t.pk) is None


def test_off_by_default_and_a_swiss_without_its_rounds_waits(
    people: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    t = _tournament(people)
    play = online_play_set(tournament=t, window_minutes=10)
    assert play.pair_next is False
    with django_capture_on_commit_callbacks(execute=True):
        for link in _links(round_generate(tournament=t)):
            _one_shows(link)
    assert t.rounds.count() == 1  # the director's word
    assert round_generate(tournament=t).number == 2  # which stays
    open_ended = Tournament.objects.get(pk=t.pk)
    open_ended.swiss_rounds = None
    open_ended.save()
    online_play_set(tournament=t, window_minutes=10, pair_next=True)
    for s in t.rounds.get(number=2).series.all():
        series_forfeit(series=s, winner=s.player1)
    assert round_next_by_itself(tournament_id=t.pk) is None  # how many rounds: unknown
    assert t.rounds.count() == 2


def test_a_round_robin_paired_ahead_publishes_its_next_round(
    people: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    t = _tournament(people, fmt=Format.ROUND_ROBIN)
    online_play_set(tournament=t, window_minutes=10, pair_next=True)
    first, second, third = round_robin_pair_all(tournament=t)
    round_publish(round=first, by=people["director"])
    with django_capture_on_commit_callbacks(execute=True):
        for link in _links(first):
            _one_shows(link)
    second.refresh_from_db()
    third.refresh_from_db()
    assert second.published and not third.published
    assert len(_links(second)) == 2 and not _links(third)


def test_paired_once_when_asked_twice(people: dict[str, Any]) -> None:
    t = _tournament(people)
    online_play_set(tournament=t, window_minutes=10, pair_next=True)
    first = round_generate(tournament=t)
    assert round_next_by_itself(tournament_id=t.pk) is None  # the round is on
    for s in first.series.all():
        series_forfeit(series=s, winner=s.player1)
    made = round_next_by_itself(tournament_id=t.pk)
    assert made is not None and made.number == 2
    assert round_next_by_itself(tournament_id=t.pk) is None
    assert t.rounds.count() == 2 and SeriesRoom.objects.filter(series__round=made).count() == 2


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite serialises every write, so the results cannot race",
)
def test_the_last_two_results_at_once_pair_one_round(transactional_db, no_throttle) -> None:
    people = _people()
    t = _tournament(people)
    online_play_set(tournament=t, window_minutes=10, pair_next=True)
    links = _links(round_generate(tournament=t))
    barrier = threading.Barrier(2)
    failed: list[BaseException] = []

    def finish(link: SeriesRoom) -> None:
        try:
            barrier.wait(timeout=20)  # both start together; each pairs once it commits
            with transaction.atomic():  # the room's result, as the sweep enters it
                room = Room.objects.select_for_update().get(pk=link.room_id)
                series_end(room, winner="a")
                room.save()
        except BaseException as exc:  # reported below
            failed.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(link,)) for link in links]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed, failed
    assert list(t.rounds.order_by("number").values_list("number", flat=True)) == [1, 2]
    assert SeriesRoom.objects.filter(series__round__number=2).count() == 2


# --- nobody came: the director decides ---------------------------------------------------


def test_both_absent_decided_by_the_services(people: dict[str, Any]) -> None:
    t = _tournament(people)
    online_play_set(tournament=t, window_minutes=5)
    quiet, early = _links(round_generate(tournament=t))
    boss, ann = people["director"], people["players"][0].user
    closed = quiet.window_closes + timedelta(minutes=1)
    with pytest.raises(PermissionDenied) as denied:
        no_show_both_forfeit(series=quiet.series, by=ann, reason="x", now=closed)
    assert denied.value.code == "not-director-no-show"
    for reason in ("", "  ", None):
        with pytest.raises(ApplicationError) as refused:
            no_show_both_forfeit(series=quiet.series, by=boss, reason=reason, now=closed)
        assert refused.value.code == "no-show-decision-reason"
    with pytest.raises(ApplicationError) as refused:  # the window is still open
        no_show_both_forfeit(series=quiet.series, by=boss, reason="x", now=timezone.now())
    assert refused.value.code == "no-show-not-both-absent"
    act(early.room, early.series.player1.user, "seed", seed="ab" * 16)
    with pytest.raises(ApplicationError) as refused:  # one came: the sweep forfeits the other
        no_show_both_forfeit(series=early.series, by=boss, reason="x", now=closed)
    assert refused.value.code == "no-show-not-both-absent"
    for minutes in (0, -1, 7 * 24 * 60 + 1, True, "10", 2.5, None):
        with pytest.raises(ApplicationError) as refused:
            no_show_more_time(series=quiet.series, by=boss, reason="x", minutes=minutes)  # type: ignore[arg-type]
        assert refused.value.code == "settings-number"
    # more time: from the window's close, or from now when it has closed
    link = no_show_more_time(series=quiet.series, by=boss, reason="a flat tyre", minutes=10,
                             now=closed)  # fmt: skip
    assert link.window_closes == closed + timedelta(minutes=10)
    assert room_sweep_timeouts(now=closed + timedelta(minutes=5)) == [early.room_id]
    decision = RoomDecision.objects.get()
    assert (decision.kind, decision.minutes, decision.by, decision.reason) == (
        "more-time", 10, boss, "a flat tyre")  # fmt: skip
    # then both lose by forfeit: a forfeit without a winner, as the standings count it
    later = link.window_closes + timedelta(seconds=1)
    no_show_both_forfeit(series=quiet.series, by=boss, reason="still nobody", now=later)
    series = Series.objects.get(pk=quiet.series_id)
    assert series.status == SeriesStatus.FORFEITED and series.winner is None
    assert Room.objects.get(pk=quiet.room_id).status == RoomStatus.ABORTED
    rows = {r.player_id: r for r in standings_for_tournament(tournament=t)}
    for p in (series.player1_id, series.player2_id):
        assert (rows[p].played, rows[p].won, rows[p].lost, rows[p].points) == (1, 0, 1, 0)
    with pytest.raises(ApplicationError) as refused:  # decided: nothing more to decide
        no_show_more_time(series=series, by=boss, reason="x", minutes=5)
    assert refused.value.code == "no-show-room-not-waiting"
    # the director may reverse it, saying why: a new room, a new window
    link = no_show_reverse(series=series, by=boss, reason="they were at the wrong table")
    series.refresh_from_db()
    assert series.status == SeriesStatus.SCHEDULED and link.room_id != quiet.room_id
    assert link.room.status == RoomStatus.WAITING


def test_both_absent_on_the_directors_live_view(people: dict[str, Any]) -> None:
    t = _tournament(people)
    online_play_set(tournament=t, window_minutes=5)
    link, _other = _links(round_generate(tournament=t))
    SeriesRoom.objects.filter(pk=link.pk).update(
        window_closes=timezone.now() - timedelta(minutes=1)
    )
    boss = _client(people["director"])
    view = reverse("tournaments:online_round_rooms", args=[t.pk, 1])
    page = boss.get(view, **EN).content.decode()
    assert "Neither player joined: decide." in page
    assert page.count("Both lose by forfeit") == 1 and "Give them more time" in page
    more = reverse("tournaments:no_show_more_time", args=[link.series_id])
    both = reverse("tournaments:no_show_forfeit_both", args=[link.series_id])
    # a player and a visitor may not decide
    assert _client(people["players"][0].user).post(more, {"reason": "x", "minutes": "5"}
                                                   ).status_code == 403  # fmt: skip
    assert _client(None).post(both, {"reason": "x"}).status_code == 302  # to sign in
    assert boss.get(more).status_code == 405
    hostile = [
        {"reason": "x", "minutes": "abc"}, {"reason": "x", "minutes": "0"},
        {"reason": "x", "minutes": "-5"}, {"reason": "x", "minutes": "99999999999999999999"},
        {"reason": "x", "minutes": "1e3"}, {"reason": "x", "minutes": ""}, {"reason": "x"},
        {"reason": "", "minutes": "5"}, {"reason": "y" * 501, "minutes": "5"},
        {"minutes": "5"},
    ]  # fmt: skip
    before = SeriesRoom.objects.get(pk=link.pk).window_closes
    for body in hostile:
        answer = boss.post(more, body, **EN)
        assert answer.status_code == 302, body
        assert SeriesRoom.objects.get(pk=link.pk).window_closes == before, body
    assert boss.post(both, {"reason": " "}, **EN).status_code == 302
    assert not RoomDecision.objects.exists()
    assert Series.objects.get(pk=link.series_id).status == SeriesStatus.SCHEDULED
    shown = boss.get(view, **EN).content.decode()
    assert "must be" in shown or "Enter a whole number" in shown or "This field" in shown
    # more time, then (the window closed again) both lose
    answer = boss.post(more, {"reason": "<b>late</b> train", "minutes": "15"}, **EN)
    assert answer.status_code == 302
    after = SeriesRoom.objects.get(pk=link.pk).window_closes
    assert after > timezone.now() + timedelta(minutes=14)
    page = boss.get(view, **EN).content.decode()
    assert "15 more minutes given by boss: &lt;b&gt;late&lt;/b&gt; train" in page
    assert "Neither player joined" not in page  # the window is open again
    SeriesRoom.objects.filter(pk=link.pk).update(
        window_closes=timezone.now() - timedelta(seconds=1)
    )
    assert boss.post(both, {"reason": "nobody came"}, **EN).status_code == 302
    series = Series.objects.get(pk=link.series_id)
    assert series.status == SeriesStatus.FORFEITED and series.winner is None
    page = boss.get(view, **EN).content.decode()
    assert "Both lost by forfeit, decided by boss: nobody came" in page
    assert "Reverse the forfeit" in page
    cs = boss.get(view, **CS).content.decode()
    assert "Oba prohráli kontumačně, rozhodl boss: nobody came" in cs
    # the API shows the decisions
    rows = {r["series"]: r for r in APIClient().get(f"/api/tournaments/{t.pk}/rooms/").json()}
    got = rows[link.series_id]
    assert [d["kind"] for d in got["decisions"]] == ["more-time", "forfeit-both"]
    assert got["decisions"][0]["minutes"] == 15 and got["decisions"][1]["by"] == "boss"
    assert got["both_absent"] is False


def test_the_director_sees_more_time_in_czech(people: dict[str, Any]) -> None:
    t = _tournament(people)
    online_play_set(tournament=t, window_minutes=5)
    link = _links(round_generate(tournament=t))[0]
    SeriesRoom.objects.filter(pk=link.pk).update(
        window_closes=timezone.now() - timedelta(minutes=1)
    )
    boss = _client(people["director"])
    page = boss.get(reverse("tournaments:online_round_rooms", args=[t.pk, 1]), **CS)
    text = page.content.decode()
    assert "Nikdo z hráčů nepřišel: rozhodněte." in text and "Dát jim více času" in text
    rows = APIClient().get(f"/api/tournaments/{t.pk}/rooms/").json()
    assert [r["both_absent"] for r in rows] == [True, False]


# --- the setting on the settings page and in the API --------------------------------------


FORM = tournament_data(
    name="Online cup", start_date="2026-12-06", format="swiss", series_length="1",
    swiss_rounds="2", published="",
)  # fmt: skip
ONLINE = {"online-enabled": "on", "online-window_minutes": "10", "online-clock": "none",
          "online-timeout_costs": "game"}  # fmt: skip


def test_the_setting_on_the_settings_page(people: dict[str, Any]) -> None:
    c = _client(people["director"])
    new = c.get(reverse("tournaments:tournament_new"), **EN).content.decode()
    assert 'name="online-pair_next"' in new and "Pair the next round by itself" in new
    made = c.post(reverse("tournaments:tournament_new"),
                  FORM | ONLINE | {"online-pair_next": "on"}, **EN)  # fmt: skip
    assert made.status_code == 302
    t = Tournament.objects.get()
    assert OnlinePlay.objects.get(tournament=t).pair_next is True
    edit = reverse("tournaments:tournament_edit", args=[t.pk])
    assert re.search(r'name="online-pair_next"[^>]*checked', c.get(edit, **EN).content.decode())
    for value in ("false", ""):
        assert c.post(edit, FORM | ONLINE | {"online-pair_next": value}, **EN).status_code == 302
        assert OnlinePlay.objects.get(tournament=t).pair_next is False, value
    for value in ("<script>", "🂡" * 300, "on"):  # a checkbox: anything else is a tick
        assert c.post(edit, FORM | ONLINE | {"online-pair_next": value}, **EN).status_code == 302
        assert OnlinePlay.objects.get(tournament=t).pair_next is True, value
    assert "Párovat další kolo samo" in c.get(edit, **CS).content.decode()


def test_the_setting_in_the_api(people: dict[str, Any]) -> None:
    api = APIClient()
    api.force_authenticate(people["director"])
    body = {"name": "Online cup", "start_date": "2026-12-06", "variant": "long",
            "format": "swiss", "swiss_rounds": 3, "series_length": 1,
            "online": {"window_minutes": 20, "pair_next": True}}  # fmt: skip
    made = api.post("/api/tournaments/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["online"]["pair_next"] is True
    pk = made.json()["id"]
    for bad in ("maybe", [True], {"a": 1}, 2, None):
        answer = api.patch(f"/api/tournaments/{pk}/", {"online": {"pair_next": bad}},
                           format="json")  # fmt: skip
        assert answer.status_code == 400, (bad, answer.content)
        assert answer.json().get("code"), answer.content
    assert OnlinePlay.objects.get(tournament_id=pk).pair_next is True
    kept = api.patch(f"/api/tournaments/{pk}/", {"online": {"window_minutes": 30}}, format="json")
    assert kept.json()["online"]["pair_next"] is True  # left out: unchanged
    off = api.patch(f"/api/tournaments/{pk}/", {"online": {"pair_next": False}}, format="json")
    assert off.status_code == 200 and off.json()["online"]["pair_next"] is False
    with pytest.raises(ApplicationError) as refused:
        online_play_set(tournament=Tournament.objects.get(pk=pk), pair_next="yes")  # type: ignore[arg-type]
    assert refused.value.code == "online-pair-next-bad"
