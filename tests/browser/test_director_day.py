"""A club director's whole day through the pages only, in headless Chromium, as a
director who is not a superuser: create a short-backgammon tournament with the
cube, add a co-director, register players (a name typed again is offered as the existing
player), invite a player who claims the profile with a new login, pair, enter a series'
scoresheet, a player submits a result and the opponent confirms, correct a round-1 result
after round 2 is paired (the warning read and confirmed), withdraw and undo, print,
download the archive and import it as a new tournament that matches.

The players' pages are in Czech (locale cs), so that an untranslated text is noticed.
With SCREENSHOTS=1 the director's pages are saved to docs/screenshots/ at 1280 and 390 px.

Before the day, as the README says, an administrator made the accounts: the director's,
with "Can add tournament", the co-director's, and Eva's (a player who claimed her
profile earlier). That is the admin's work, so it is set up here directly."""

from __future__ import annotations

import datetime
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.core import mail
from django.db.models import Q
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tournaments.models import Entry, Game, Player, Series, SeriesStatus, Tournament
from tournaments.services.series import series_next_white

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS") == "1"
OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "a-long-secret-1"


def shot(page: Page, name: str) -> None:
    """The page at desktop and phone width, when SCREENSHOTS=1."""
    if not SHOTS:
        return
    OUT.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or {"width": 1280, "height": 900}
    for label, (width, height) in {"desktop": (1280, 900), "phone": (390, 844)}.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(OUT / f"director-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(size)


def signed_in(browser: Browser, base: str, username: str, locale: str = "en-GB") -> Page:
    context: BrowserContext = browser.new_context(
        locale=locale, viewport={"width": 1280, "height": 900}, accept_downloads=True
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{base}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("#id_password")).to_have_count(0)
    return page


def quick_game(form: Any, white: Player, winner: Player) -> None:
    form.locator("select[name$=white]").select_option(str(white.pk))
    form.locator("select[name$=winner]").select_option(str(winner.pk))
    form.locator("select[name$=kind]").select_option("oin")


def test_a_directors_whole_day(live_server: Any, browser: Browser, tmp_path: Path) -> None:
    base = live_server.url
    dana = User.objects.create_user("dana", password=PASSWORD)
    dana.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    User.objects.create_user("karel", password=PASSWORD)
    eva_login = User.objects.create_user("eva", password=PASSWORD)
    Player.objects.create(name="Eva Kučerová", user=eva_login)
    assert not dana.is_staff and not dana.is_superuser

    # 1. the tournament: short backgammon with the cube, series to 1 point -----------------
    d = signed_in(browser, base, "dana")
    d.goto(f"{base}/")
    d.get_by_role("link", name=re.compile("New tournament", re.I)).first.click()
    d.locator("#id_name").fill("Klubový den")
    d.locator("#id_start_date").fill("2026-06-01")
    d.locator("#id_variant").select_option("short")
    d.locator("#id_format").select_option("round_robin")
    d.locator("#id_series_length").fill("1")
    expect(d.locator("#id_cube")).to_be_visible()  # the short game has the cube
    d.locator("#id_cube").check()
    expect(d.locator("#id_length_final")).to_be_hidden()  # no knockout stages here
    shot(d, "tournament-form")
    d.get_by_role("button", name="Create the tournament").click()
    expect(d.get_by_role("heading", name="Players and pairing")).to_be_visible()
    t = Tournament.objects.get(name="Klubový den")
    assert (t.variant, t.cube, t.series_length) == ("short", True, 1)
    assert list(t.directors.values_list("username", flat=True)) == ["dana"]

    # 2. a co-director ---------------------------------------------------------------------
    d.get_by_role("link", name="Directors and pairs kept apart").click()
    d.locator("form:has(input[value=director])").get_by_label("Username").fill("karel")
    d.get_by_role("button", name="Add a co-director").click()
    expect(d.locator("#directors-heading + ul")).to_contain_text("karel")
    assert set(t.directors.values_list("username", flat=True)) == {"dana", "karel"}

    # 3. players; Eva typed again is offered as the existing player -----------------------
    d.goto(f"{base}/tournaments/{t.pk}/players/")
    for name in ("Alena", "Bohdan", "Cyril"):
        d.get_by_label("or a new player").fill(name)
        d.get_by_role("button", name="Register", exact=True).click()
        expect(d.get_by_text(f"{name} is registered.")).to_be_visible()
    d.get_by_label("or a new player").fill("eva kucerova")
    d.get_by_role("button", name="Register", exact=True).click()
    warning = d.locator("#similar-names")
    expect(warning).to_contain_text("Eva Kučerová")
    shot(d, "entries-similar-name")
    warning.get_by_role("button", name="Register this player").click()
    expect(d.get_by_text("Eva Kučerová is registered.")).to_be_visible()
    assert Player.objects.filter(name__icontains="Ku").count() == 1
    assert Entry.objects.filter(tournament=t).count() == 4

    # 4. Bohdan is invited by email and claims his profile with a new login (in Czech) -----
    row = d.locator("tr", has_text="Bohdan")
    row.get_by_role("link", name="Invite").click()
    d.get_by_label("Email address").fill("bohdan@example.org")
    shot(d, "invitation")
    d.get_by_role("button", name="Send by email").click()
    assert mail.outbox, "no invitation was sent"
    link = re.search(r"https?://\S+/invitations/\S+", str(mail.outbox[-1].body))
    assert link is not None, mail.outbox[-1].body
    cz = browser.new_context(locale="cs-CZ", viewport={"width": 390, "height": 844})
    b = cz.new_page()
    b.set_default_timeout(20_000)
    b.goto(link.group(0).replace("http://testserver", base))
    expect(b.get_by_role("heading", name="Převzetí hráčského profilu")).to_be_visible()
    assert "Claim your player profile" not in b.content()
    b.locator("#id_username").fill("bohdan")
    b.locator("#id_password").fill(PASSWORD)
    shot(b, "claim")
    b.get_by_role("button", name="Založit účet a převzít profil").click()
    bohdan = Player.objects.get(name="Bohdan")
    assert bohdan.user is not None and bohdan.user.username == "bohdan"
    d.goto(f"{base}/tournaments/{t.pk}/players/")
    expect(d.locator("tr", has_text="Bohdan")).to_contain_text("✓ bohdan")

    # 5. pair round 1; Bohdan meets Eva (swapped in if the pairing did not) ----------------
    d.get_by_role("button", name="Pair the next round").click()
    expect(d.get_by_text("Round 1 is paired.")).to_be_visible()
    eva = Player.objects.get(name="Eva Kučerová")

    def bohdans_series() -> Series:
        return Series.objects.select_related("player1", "player2", "tournament").get(
            Q(player1=bohdan) | Q(player2=bohdan), tournament=t, round__number=1
        )

    theirs = bohdans_series()
    if eva.pk not in (theirs.player1_id, theirs.player2_id):
        opponent = theirs.player2 if theirs.player1_id == bohdan.pk else theirs.player1
        assert opponent is not None
        d.goto(f"{base}/tournaments/{t.pk}/round/1/")
        d.locator("#player_a").select_option(str(opponent.pk))
        d.locator("#player_b").select_option(str(eva.pk))
        d.get_by_role("button", name="Swap", exact=True).click()
        expect(d.get_by_text("The two players have changed places.")).to_be_visible()
        theirs = bohdans_series()
    assert eva.pk in (theirs.player1_id, theirs.player2_id)
    other = (
        Series.objects.select_related("player1", "player2", "tournament")
        .exclude(pk=theirs.pk)
        .get(tournament=t, round__number=1)
    )
    d.goto(f"{base}/tournaments/{t.pk}/round/1/")
    shot(d, "round-manage")

    # 6. the whole scoresheet of the other series ------------------------------------------
    d.goto(f"{base}/series/{other.pk}/")
    d.get_by_role("link", name="Enter the whole scoresheet").click()
    white = series_next_white(other, []) or other.player1
    assert white is not None and other.player1 is not None
    quick_game(d.locator("fieldset").first, white, other.player1)
    shot(d, "scoresheet")
    d.get_by_role("button", name="Save the scoresheet").click()
    other.refresh_from_db()
    assert other.status == SeriesStatus.FINISHED and other.winner_id == other.player1_id

    # 7. Bohdan submits his result (in Czech); Eva confirms it ------------------------------
    b.goto(f"{base}/series/{theirs.pk}/")
    expect(b.get_by_text("Váš výsledek platí, jakmile ho potvrdí soupeř")).to_be_visible()
    first = series_next_white(theirs, []) or theirs.player1
    assert first is not None
    quick_game(b.locator("#quick-form"), first, bohdan)
    b.locator("#quick-form").get_by_role("button", name="Uložit hru").click()
    theirs.refresh_from_db()
    assert theirs.status != SeriesStatus.FINISHED  # waits for Eva
    e = signed_in(browser, base, "eva", locale="cs-CZ")
    e.goto(f"{base}/confirmations/")
    expect(e.get_by_role("heading", name="Výsledky čekající na potvrzení")).to_be_visible()
    shot(e, "confirmations")
    e.get_by_role("button", name="Potvrdit", exact=True).first.click()
    theirs.refresh_from_db()
    assert theirs.status == SeriesStatus.FINISHED and theirs.winner_id == bohdan.pk

    # 8. round 2; a round-1 result corrected: the warning names round 2, then confirmed ----
    d.goto(f"{base}/tournaments/{t.pk}/players/")
    d.get_by_role("button", name="Pair the next round").click()
    expect(d.get_by_text("Round 2 is paired.")).to_be_visible()
    game = Game.objects.get(series=other)
    d.goto(f"{base}/games/{game.pk}/correct/")
    d.locator("select[name=winner]").select_option(str(other.player2_id))
    d.get_by_label("Reason").fill("the scoresheet was misread")
    d.get_by_role("button", name="Save the correction").click()
    expect(d.locator(".warnings")).to_contain_text("Round 2 was paired on the old result")
    later = Series.objects.get(
        Q(player1=other.player1) | Q(player2=other.player1), tournament=t, round__number=2
    )
    expect(d.locator(".warnings")).to_contain_text(f"round 2: {later}")
    shot(d, "correction-warning")
    other.refresh_from_db()
    assert other.winner_id == other.player1_id  # nothing changed before the confirmation
    d.get_by_label("I have read this: correct the result anyway.").check()
    d.get_by_role("button", name="Save the correction").click()
    other.refresh_from_db()
    assert other.winner_id == other.player2_id
    d.goto(f"{base}/series/{other.pk}/")
    expect(d.get_by_text("the scoresheet was misread")).to_be_visible()  # the audit trail

    # 9. withdraw Cyril, with confirmation, and undo ---------------------------------------
    d.goto(f"{base}/tournaments/{t.pk}/players/")
    d.locator("tr", has_text="Cyril").get_by_role("link", name="Withdraw").click()
    d.locator("form.toolbar button[type=submit]").click()
    expect(d.locator("tr", has_text="Cyril")).to_contain_text("withdrawn")
    assert Entry.objects.get(tournament=t, player__name="Cyril").withdrawn
    d.locator("tr", has_text="Cyril").get_by_role("link", name="Undo the withdrawal").click()
    d.locator("form.toolbar button[type=submit]").click()
    expect(d.locator("tr", has_text="Cyril")).not_to_contain_text("withdrawn")
    assert not Entry.objects.get(tournament=t, player__name="Cyril").withdrawn

    # 10. print pages ------------------------------------------------------------------------
    d.goto(f"{base}/tournaments/{t.pk}/")
    d.get_by_role("link", name="Print round 2").click()
    expect(d.locator("body")).to_contain_text("Round 2")
    shot(d, "print-round")
    d.goto(f"{base}/tournaments/{t.pk}/")
    d.get_by_role("link", name="Print the standings").click()
    expect(d.locator("body")).to_contain_text("Crosstable")
    shot(d, "print-standings")

    # 11. the archive, downloaded and imported as a new tournament Dana directs -----------
    d.goto(f"{base}/tournaments/{t.pk}/")
    with d.expect_download() as download:
        d.get_by_role("link", name="Archive (JSON, for import)").click()
    path = tmp_path / "archive.json"
    download.value.save_as(path)
    archive = json.loads(path.read_text("utf-8"))
    assert archive["tournament"]["name"] == "Klubový den"
    d.get_by_role("link", name="Import a tournament").click()
    d.locator("#id_file").set_input_files(str(path))
    d.locator("#id_name").fill("Klubový den (kopie)")
    d.locator("#id_copy").check()  # it is on this site already: a copy, asked for
    shot(d, "import")
    d.get_by_role("button", name="Start").click()
    expect(d.locator("#job-status")).to_have_text(re.compile("done"))
    d.locator("main p", has_text="matched").get_by_role("link", name="Klubový den (kopie)").click()
    expect(d.get_by_role("heading", name="Klubový den (kopie)")).to_be_visible()
    copy = Tournament.objects.get(name="Klubový den (kopie)")
    assert list(copy.directors.values_list("username", flat=True)) == ["dana"]

    def summary(x: Tournament) -> list[tuple[Any, ...]]:
        rows = Series.objects.filter(tournament=x).select_related("player1", "player2", "round")
        return sorted(
            (s.round.number if s.round else 0, str(s.player1), str(s.player2), s.status,
             s.score1, s.score2, s.length) for s in rows
        )  # fmt: skip

    assert summary(copy) == summary(t)
    assert (copy.variant, copy.cube, copy.series_length) == ("short", True, 1)
    assert sorted(copy.entries.values_list("player__name", flat=True)) == sorted(
        t.entries.values_list("player__name", flat=True)
    )
    assert Game.objects.filter(series__tournament=copy).count() == 2
    assert copy.start_date == datetime.date(2026, 6, 1)
