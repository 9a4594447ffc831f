"""A tournament's own archive imported again on the same site as a copy, published and
rated, counts its series twice in the ratings. Its directors (and staff allowed to) delete
it through every door - the page, the API, the admin - by one service: the copy and
everything in it go, an audit row says who, when, why and what, and every player's
rating, experience and rated series are back to what they were before the copy."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, Permission, User
from django.test import Client
from django.utils import translation

from tests.tournaments.helpers import EN, World, rating_of
from tournaments.models import Deletion, Game, Player, RatingChange, Series, Tournament
from tournaments.models.deletion import REASON_MAX
from tournaments.services.archives import tournament_import
from tournaments.services.deletion import tournament_delete, tournament_delete_summary
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.exports import tournament_archive

pytestmark = pytest.mark.django_db
CS: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "cs"}
NO_REASON_CS = "Napište, proč se maže."
NO_REASON_EN = "Say why it is deleted."
NOT_NAME_CS = "Toto není název turnaje"
NOT_NAME_EN = "This is not the tournament"

Ratings = dict[int, tuple[float, int, int]]


def _ratings() -> Ratings:
    """Every player's (long nardy) rating, experience and number of rated series."""
    return {
        p.pk: (rating_of(p).rating, rating_of(p).experience, p.rating_changes.count())
        for p in Player.objects.order_by("pk")
    }


def _same(after: Ratings, before: Ratings) -> None:
    assert after.keys() == before.keys()
    for pk, (rating, experience, rated) in before.items():
        assert after[pk][0] == pytest.approx(rating, abs=1e-6)
        assert after[pk][1:] == (experience, rated)


class Copied:
    def __init__(self, world: World, copy: Tournament, before: Ratings) -> None:
        self.world, self.copy, self.before = world, copy, before

    def client(self, role: str | None, headers: dict[str, Any] = CS) -> Client:
        client = Client(**headers)
        if role is not None:
            client.force_login(self.world.users[role])
        return client

    def gone(self) -> None:
        """The copy and everything in it are gone, the original stands, the ratings are
        as before the copy."""
        assert not Tournament.objects.filter(pk=self.copy.pk).exists()
        assert not Series.objects.filter(tournament_id=self.copy.pk).exists()
        assert not Game.objects.filter(series__tournament_id=self.copy.pk).exists()
        assert Series.objects.filter(tournament=self.world.tournament).count() == 2
        _same(_ratings(), self.before)

    def kept(self) -> None:
        assert Tournament.objects.filter(pk=self.copy.pk).exists()
        assert not Deletion.objects.exists()


@pytest.fixture
def copied(played: World) -> Copied:
    """The finding: the tournament's archive imported on its own site, as a copy that
    keeps the archive's published and rated: its series count twice."""
    played.tournament.refresh_from_db()
    before = _ratings()
    archive = json.loads(json.dumps(tournament_archive(played.tournament)))
    with translation.override("en"):
        copy = tournament_import(
            archive=archive, by=played.users["staff"], as_copy=True, as_archived=True
        ).tournament
    assert (copy.published, copy.rated) == (True, True)
    assert RatingChange.objects.filter(series__tournament=copy).count() == 4
    changed = _ratings()
    assert any(changed[pk][2] == before[pk][2] + 1 for pk in before)  # counted twice
    assert copy.directors.filter(username="boss").exists()  # the archive's director
    return Copied(played, copy, before)


def _audit(copied: Copied, by: str, reason: str) -> Deletion:
    deletion = Deletion.objects.get()
    assert (deletion.kind, deletion.label, deletion.object_id) == (
        "tournament", copied.copy.name, copied.copy.pk,
    )  # fmt: skip
    assert deletion.by == copied.world.users[by] and deletion.by_name == by
    assert deletion.reason == reason
    summary = deletion.summary
    assert {k: summary[k] for k in ("rounds", "series", "entries", "rated_series")} == {
        "rounds": 1, "series": 2, "entries": 4, "rated_series": 2,
    }  # fmt: skip
    original = copied.world.tournament
    assert summary["games"] == Game.objects.filter(series__tournament=original).count()
    assert sorted(p["name"] for p in summary["players"]) == ["Eva", "Jana", "Karel", "Petr"]
    return deletion


# --- the service ---


def test_the_service_deletes_the_copy_and_the_ratings_come_back(copied: Copied):
    tournament_delete(tournament=copied.copy, by=copied.world.users["boss"], reason=" twice ")
    copied.gone()
    _audit(copied, "boss", "twice")


def test_an_unrated_tournament_deleted_changes_no_rating(played: World):
    before = _ratings()
    t = Tournament.objects.create(name="Test", start_date="2026-12-01", rated=False)
    t.directors.add(played.users["otherboss"])
    tournament_delete(tournament=t, by=played.users["otherboss"], reason="a test")
    assert Deletion.objects.get().summary["players"] == []
    assert _ratings() == before


@pytest.mark.parametrize("role", ["jana", "otherboss", None])
def test_others_are_refused_in_their_language(copied: Copied, role: str | None):
    by = copied.world.users[role] if role else AnonymousUser()
    with translation.override("cs"), pytest.raises(PermissionDenied) as refused:
        tournament_delete(tournament=copied.copy, by=by, reason="mine")
    assert refused.value.code == "not-director-delete"
    assert refused.value.message == "turnaj smějí smazat jen jeho ředitelé"
    copied.kept()


def test_staff_need_the_delete_permission(copied: Copied):
    clerk = User.objects.create_user("clerk", is_staff=True)
    with pytest.raises(PermissionDenied):
        tournament_delete(tournament=copied.copy, by=clerk, reason="mine")
    clerk.user_permissions.add(Permission.objects.get(codename="delete_tournament"))
    clerk = User.objects.get(pk=clerk.pk)  # the permissions cache
    tournament_delete(tournament=copied.copy, by=clerk, reason="a copy")
    copied.gone()


@pytest.mark.parametrize(
    ("reason", "code"),
    [("", "deletion-reason"), ("  \n ", "deletion-reason"), (None, "deletion-reason"),
     ("x" * 501, "deletion-reason-long"), ("a\x00b", "deletion-reason-nul")],
)  # fmt: skip
def test_a_bad_reason_deletes_nothing(copied: Copied, reason: Any, code: str):
    with translation.override("en"), pytest.raises(ApplicationError) as refused:
        tournament_delete(tournament=copied.copy, by=copied.world.users["boss"], reason=reason)
    assert (refused.value.code, refused.value.field) == (code, "reason")
    copied.kept()


# --- the page ---


def test_the_settings_page_links_to_the_confirmation(copied: Copied):
    page = copied.client("boss", EN).get(f"/tournaments/{copied.copy.pk}/edit/")
    assert f'href="/tournaments/{copied.copy.pk}/delete/"' in page.content.decode()


@pytest.mark.parametrize("headers", [CS, EN], ids=["cs", "en"])
def test_the_page_shows_what_goes_and_a_get_deletes_nothing(copied: Copied, headers):
    page = copied.client("boss", headers).get(f"/tournaments/{copied.copy.pk}/delete/")
    assert page.status_code == 200
    text = page.content.decode()
    for name in ("Eva", "Jana", "Karel", "Petr"):
        assert f"<bdi>{name}</bdi>" in text
    said = ("Hodnocené série vyřazené z hodnocení: 2" if headers is CS
            else "Rated series taken out of the ratings: 2")  # fmt: skip
    assert said in text
    copied.kept()


def test_the_page_deletes_it_with_a_reason_and_the_name(copied: Copied):
    client = copied.client("boss", EN)
    url = f"/tournaments/{copied.copy.pk}/delete/"
    answer = client.post(url, {"reason": "imported twice", "name": copied.copy.name})
    assert answer.status_code == 302 and answer["Location"] == "/"
    copied.gone()
    _audit(copied, "boss", "imported twice")
    home = client.get("/")
    assert f"The tournament {copied.copy.name} is deleted." in home.content.decode()
    assert client.get(f"/tournaments/{copied.copy.pk}/").status_code == 404
    assert client.post(url, {"reason": "again", "name": copied.copy.name}).status_code == 404


@pytest.mark.parametrize("headers", [CS, EN], ids=["cs", "en"])
@pytest.mark.parametrize(
    ("data", "said_cs", "said_en"),
    [({"name": "Přebor (copy)"}, NO_REASON_CS, NO_REASON_EN),
     ({"reason": " ", "name": "Přebor (copy)"}, NO_REASON_CS, NO_REASON_EN),
     ({"reason": "x" * 501, "name": "Přebor (copy)"}, "nejvýše 500 znaků", "at most 500"),
     ({"reason": "twice", "name": "Přebor"}, NOT_NAME_CS, NOT_NAME_EN),
     ({"reason": "twice"}, "Toto pole je povinné.", "This field is required."),
     ({"reason": "a\x00b", "name": "Přebor (copy)"}, "Nulové znaky", "Null characters")],
)  # fmt: skip
def test_the_page_refuses_bad_input_in_the_users_language(
    copied: Copied, headers, data, said_cs, said_en
):
    answer = copied.client("boss", headers).post(f"/tournaments/{copied.copy.pk}/delete/", data)
    assert answer.status_code == 400
    assert (said_cs if headers is CS else said_en) in answer.content.decode()
    copied.kept()


@pytest.mark.parametrize(("role", "status"), [("jana", 403), ("otherboss", 403)])
def test_the_page_is_for_its_directors(copied: Copied, role: str, status: int):
    url = f"/tournaments/{copied.copy.pk}/delete/"
    client = copied.client(role)
    assert client.get(url).status_code == status
    data = {"reason": "mine", "name": copied.copy.name}
    assert client.post(url, data).status_code == status
    copied.kept()


def test_anonymous_visitors_are_sent_to_sign_in_and_unknown_ids_are_404(copied: Copied):
    url = f"/tournaments/{copied.copy.pk}/delete/"
    answer = copied.client(None).post(url, {"reason": "x", "name": copied.copy.name})
    assert answer.status_code == 302 and "/login/" in answer["Location"]
    copied.kept()
    assert copied.client("boss").get("/tournaments/999999/delete/").status_code == 404


# --- the API ---


def test_the_api_deletes_it_with_a_reason(copied: Copied):
    api = copied.world.client("boss")
    url = f"/api/tournaments/{copied.copy.pk}/"
    answer = api.delete(url, {"reason": "imported twice"}, format="json")
    assert answer.status_code == 204, answer.content
    copied.gone()
    _audit(copied, "boss", "imported twice")
    assert api.delete(url, {"reason": "again"}, format="json").status_code == 404


@pytest.mark.parametrize(
    ("body", "code", "lang", "said"),
    [(None, "deletion-reason", "cs", NO_REASON_CS),
     ({}, "deletion-reason", "en", NO_REASON_EN),
     ({"reason": ""}, "deletion-reason", "cs", NO_REASON_CS),
     ({"reason": "x" * 5000}, "deletion-reason-long", "en", "at most 500"),
     ({"reason": {"why": 1}}, "invalid", "en", "reason"),
     ({"reason": "a\x00b"}, "null_characters_not_allowed", "en", "reason")],
)  # fmt: skip
def test_the_api_refuses_a_missing_or_bad_reason(copied: Copied, body, code, lang, said):
    api = copied.world.client("boss")
    kwargs: dict[str, Any] = {"format": "json"} if body is not None else {}
    answer = api.delete(f"/api/tournaments/{copied.copy.pk}/", body, HTTP_ACCEPT_LANGUAGE=lang,
                        **kwargs)  # fmt: skip
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == code and said in answer.json()["detail"]
    copied.kept()


@pytest.mark.parametrize("role", ["jana", "otherboss", None])
def test_the_api_refuses_others(copied: Copied, role: str | None):
    answer = copied.world.client(role).delete(
        f"/api/tournaments/{copied.copy.pk}/", {"reason": "mine"}, format="json"
    )
    assert answer.status_code == 403
    copied.kept()


def test_the_api_answers_404_for_an_unknown_tournament(copied: Copied):
    api = copied.world.client("boss")
    assert api.delete("/api/tournaments/999999/", {"reason": "x"}, format="json").status_code == 404
    copied.kept()


# --- the admin ---


@pytest.fixture
def superuser(copied: Copied) -> Client:
    admin = User.objects.create_superuser("root", password="pw-root")
    copied.world.users["root"] = admin
    return copied.client("root", EN)


def test_the_admin_lists_no_protected_objects_and_asks_why(copied: Copied, superuser: Client):
    url = f"/admin/tournaments/tournament/{copied.copy.pk}/delete/"
    page = superuser.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "protected" not in text and "permission to delete" not in text
    assert 'name="reason"' in text and "Rated series: 2" in text
    assert f'maxlength="{REASON_MAX}"' in text  # as long as the service takes
    answer = superuser.post(url, {"post": "yes", "reason": " "})  # no reason: asked again
    assert answer.status_code == 302 and answer["Location"] == url
    copied.kept()
    answer = superuser.post(url, {"post": "yes", "reason": "imported twice"})
    assert answer.status_code == 302
    copied.gone()
    _audit(copied, "root", "imported twice")
    audit = superuser.get("/admin/tournaments/deletion/")
    assert audit.status_code == 200 and "imported twice" in audit.content.decode()
    row = superuser.get(f"/admin/tournaments/deletion/{Deletion.objects.get().pk}/change/")
    assert row.status_code == 200 and "Karel" in row.content.decode()
    assert superuser.get("/admin/tournaments/deletion/add/").status_code == 403


def test_the_admin_deletes_no_tournaments_in_bulk(copied: Copied, superuser: Client):
    answer = superuser.post(
        "/admin/tournaments/tournament/",
        {"action": "delete_selected", "_selected_action": [copied.copy.pk], "post": "yes"},
    )
    assert answer.status_code in (200, 302)
    copied.kept()


def test_the_summary_counts_what_the_page_shows(copied: Copied):
    summary = tournament_delete_summary(tournament=copied.copy)
    assert summary["rated_series"] == 2 and len(summary["players"]) == 4
