"""Merging two players who are one person (services/merging.py): what moves, the ratings
replayed, the audit, the undo until the next rating change, who may, what is refused;
through the service, the player page, the merge page and the admin."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.pages_data import round_robin
from tournaments.models import (
    Entry,
    Game,
    Player,
    PlayerMerge,
    PlayerRating,
    RatingChange,
    Series,
    Tournament,
)
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.merging import player_merge, player_merge_undo
from tournaments.services.ratings import ratings_recompute
from tournaments.services.results import game_enter_quick
from tournaments.services.series import series_next_white

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    with translation.override("en"):
        yield


@pytest.fixture
def boss() -> User:
    return User.objects.create_user("boss", password="a-long-secret-1")


def _first(t: Tournament) -> Player:
    return Player.objects.get(name=f"{t.name} player 1")


@pytest.fixture
def two(boss: User) -> tuple[Player, Player]:
    """Jana Nováková of the spring cup and Jana Novakova of the autumn cup: one person
    entered twice, each with a rated series played; the duplicate has the account."""
    spring, autumn = round_robin(4, by=boss, name="Spring"), round_robin(4, by=boss, name="Autumn")
    kept, absorbed = _first(spring), _first(autumn)
    Player.objects.filter(pk=kept.pk).update(name="Jana Nováková")
    Player.objects.filter(pk=absorbed.pk).update(
        name="Jana Novakova", user=User.objects.create_user("jana", password="a-long-secret-1")
    )
    kept.refresh_from_db()
    absorbed.refresh_from_db()
    return kept, absorbed


def _ratings() -> dict[int, float]:
    return dict(PlayerRating.objects.values_list("player_id", "rating"))


def _finish_a_series() -> None:
    s = Series.objects.filter(status="scheduled", player2__isnull=False).select_related(
        "player1", "player2", "tournament"
    ).first()  # fmt: skip
    assert s is not None
    white = series_next_white(s, []) or s.player1
    game_enter_quick(series=s, white=white, winner=white, kind="oin")


def test_the_kept_player_takes_everything_and_the_ratings_are_replayed(boss, two):
    kept, absorbed = two
    changes = RatingChange.objects.filter(player__in=two).count()
    entries = set(Entry.objects.filter(player__in=two).values_list("pk", flat=True))
    games = (
        Game.objects.filter(white=absorbed).count() + Game.objects.filter(black=absorbed).count()
    )
    assert changes == 2 and games == 1
    merge = player_merge(kept=kept, absorbed=absorbed, by=boss, reason="one person")
    assert not Player.objects.filter(pk=absorbed.pk).exists()
    assert set(Entry.objects.filter(player=kept).values_list("pk", flat=True)) == entries
    assert Game.objects.filter(white=kept).count() + Game.objects.filter(black=kept).count() == 2
    assert RatingChange.objects.filter(player=kept).count() == 2
    kept.refresh_from_db()
    assert kept.user is not None and kept.user.username == "jana"
    after = _ratings()
    ratings_recompute()  # the merge left the ratings as a full replay makes them
    assert _ratings() == after
    assert merge.by == boss and merge.reason == "one person" and merge.absorbed_id == absorbed.pk
    assert len(merge.moved["tournaments.Entry.player"]) == 1
    paired = merge.moved.get("tournaments.Series.player1", [])
    assert len(paired + merge.moved.get("tournaments.Series.player2", [])) == 2  # rounds 1, 2


def test_the_undo_brings_the_player_back_until_the_next_rating_change(boss, two):
    kept, absorbed = two
    before = _ratings()
    entries = sorted(Entry.objects.filter(player=absorbed).values_list("pk", flat=True))
    merge = player_merge(kept=kept, absorbed=absorbed, by=boss)
    back = player_merge_undo(merge=merge, by=boss)
    assert back.pk == absorbed.pk and back.name == "Jana Novakova"
    assert back.user is not None and back.user.username == "jana"
    kept.refresh_from_db()
    assert kept.user is None
    assert sorted(Entry.objects.filter(player=back).values_list("pk", flat=True)) == entries
    assert _ratings() == pytest.approx(before)
    merge.refresh_from_db()
    assert merge.undone_at is not None and merge.undone_by == boss
    with pytest.raises(ApplicationError) as again:
        player_merge_undo(merge=merge, by=boss)
    assert again.value.code == "merge-undone-already"
    late = player_merge(kept=kept, absorbed=back, by=boss)
    _finish_a_series()  # a rating change: the merge stays
    with pytest.raises(ApplicationError) as too_late:
        player_merge_undo(merge=late, by=boss)
    assert too_late.value.code == "merge-undo-too-late"


def test_who_may_merge_and_what_is_refused(boss, two):
    kept, absorbed = two
    spring = Tournament.objects.get(name="Spring")
    helper = User.objects.create_user("helper", password="a-long-secret-1")
    spring.directors.add(helper)  # directs one of the two tournaments only
    with pytest.raises(PermissionDenied):
        player_merge(kept=kept, absorbed=absorbed, by=helper)
    partner = Player.objects.get(name="Spring player 2")  # in the same round robin
    with pytest.raises(ApplicationError) as same:
        player_merge(kept=kept, absorbed=partner, by=boss)
    assert same.value.code == "merge-same-tournament"
    Player.objects.filter(pk=kept.pk).update(
        user=User.objects.create_user("jana2", password="a-long-secret-1")
    )
    kept.refresh_from_db()
    with pytest.raises(ApplicationError) as accounts:
        player_merge(kept=kept, absorbed=absorbed, by=boss)
    assert accounts.value.code == "merge-two-accounts"
    staff = User.objects.create_user("staff", password="a-long-secret-1", is_staff=True)
    Player.objects.filter(pk=kept.pk).update(user=None)
    kept.refresh_from_db()
    assert player_merge(kept=kept, absorbed=absorbed, by=staff).kept == kept
    assert Player.objects.filter(pk=absorbed.pk).count() == 0


def test_the_player_page_offers_the_merge_and_its_undo(client: Client, boss, two):
    kept, absorbed = two
    client.force_login(boss)
    page = client.get(reverse("tournaments:player", args=[kept.pk]), HTTP_ACCEPT_LANGUAGE="en")
    merge_url = reverse("tournaments:player_merge", args=[absorbed.pk]) + f"?into={kept.pk}"
    assert merge_url in page.content.decode()
    shown = client.get(merge_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Merge into Jana Nováková" in shown and "Entries: 1, series: 2, games: 1." in shown
    done = client.post(
        reverse("tournaments:player_merge", args=[absorbed.pk]),
        {"into": kept.pk, "reason": "the same Jana"}, HTTP_ACCEPT_LANGUAGE="en",
    )  # fmt: skip
    assert done.status_code == 302 and done["Location"] == reverse(
        "tournaments:player", args=[kept.pk]
    )
    merge = PlayerMerge.objects.get()
    assert merge.reason == "the same Jana"
    czech = client.get(done["Location"], HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    undo = reverse("tournaments:merge_undo", args=[merge.pk])
    assert undo in czech and "Zrušit sloučení" in czech
    back = client.post(undo)
    assert back.status_code == 302 and Player.objects.filter(pk=absorbed.pk).exists()


def test_the_pages_refuse_who_may_not_merge(client: Client, boss, two):
    kept, absorbed = two
    url = reverse("tournaments:player_merge", args=[absorbed.pk])
    assert client.get(url).status_code == 302  # signed out: the sign-in page
    player = User.objects.create_user("player", password="a-long-secret-1")
    client.force_login(player)
    assert client.post(url, {"into": kept.pk}).status_code == 403
    page = client.get(reverse("tournaments:player", args=[kept.pk])).content.decode()
    assert url not in page
    helper = User.objects.create_user("helper", password="a-long-secret-1")
    Tournament.objects.get(name="Spring").directors.add(helper)
    client.force_login(helper)
    refused = client.post(url, {"into": kept.pk}, HTTP_ACCEPT_LANGUAGE="en")
    assert (
        refused.status_code == 403 and "directors of every tournament" in refused.content.decode()
    )
    assert Player.objects.filter(pk=absorbed.pk).exists() and not PlayerMerge.objects.exists()


def test_the_admin_lists_merges_and_undoes_them(client: Client, boss, two):
    kept, absorbed = two
    merge = player_merge(kept=kept, absorbed=absorbed, by=boss)
    admin = User.objects.create_superuser("admin", password="a-long-secret-1")
    client.force_login(admin)
    listing = client.get(reverse("admin:tournaments_playermerge_changelist"))
    assert listing.status_code == 200 and "Jana Novakova" in listing.content.decode()
    client.post(
        reverse("admin:tournaments_playermerge_changelist"),
        {"action": "undo_merges", "_selected_action": [merge.pk]},
    )
    merge.refresh_from_db()
    assert merge.undone_at is not None and Player.objects.filter(pk=absorbed.pk).exists()
