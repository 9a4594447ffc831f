"""Screenshots of the main pages at phone (390 px) and desktop (1280 px) width, from the
demo data, into docs/screenshots/. Run: .venv/bin/python tools/screenshots.py

It uses a throw-away SQLite database, Django's development server and Debian's
chromium (apt-get install chromium) through Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run",
]  # fmt: skip
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
HALL_SIZES = {"phone": (390, 844), "screen": (1920, 1080)}
# a refusal in Czech - a record with an illegal turn, entered by a director
REFUSED_RECORD = '[Variant "long"]\n\n1. 65: 24/18 24/18\n'
DIRECTOR = ("director", "demo-director-1")
STATS_PARTS = {
    "stats-chart": ("/games/{game}/?turn=20", "section.game-stats"),
    "stats-player": ("/players/1/", "section:has(#dice-heading)"),
    # the rating chart with its axes
    "rating-chart": ("/players/1/", "figure.rating-chart"),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def refusal(page: Page, base: str, series: str, target: Path) -> None:
    """A director enters a record with an illegal turn; the form says why, in Czech."""
    page.goto(f"{base}/accounts/login/")
    page.locator("#id_username").fill(DIRECTOR[0])
    page.locator("#id_password").fill(DIRECTOR[1])
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{base}/series/{series}/")
    page.locator("#record-form textarea").fill(REFUSED_RECORD)
    page.locator("#record-form button[type=submit]").click()
    page.wait_for_load_state()
    page.locator("#record-form").screenshot(path=str(target))
    print(target.relative_to(ROOT))


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="nardy-shots-"))
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{workdir / 'demo.sqlite3'}", DJANGO_DEBUG="1")
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True)
    subprocess.run([*manage, "load_demo"], env=env, check=True, stdout=subprocess.DEVNULL)

    def printed(code: str) -> str:
        """The last word ``code`` prints, run by ``manage.py shell`` on the demo."""
        done = subprocess.run([*manage, "shell", "-c", code], env=env, check=True,
                              capture_output=True, text=True)  # fmt: skip
        return done.stdout.split()[-1]

    game = printed(
        "from tournaments.models import Game; "
        "print(Game.objects.exclude(record='').order_by('id').first().pk)"
    )
    knockout = printed(
        "from tournaments.models import Tournament; "
        "print(Tournament.objects.filter(format='single_elimination').order_by('id').first().pk)"
    )
    series = printed(
        "from django.contrib.auth.models import User; from tournaments.models import Series; "
        f"User.objects.create_superuser({DIRECTOR[0]!r}, '', {DIRECTOR[1]!r}); "
        "print(Series.objects.filter(status__in=['scheduled', 'in_play'], "
        "player2__isnull=False).order_by('id').first().pk)"
    )
    port = free_port()
    server = subprocess.Popen(
        [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    pages = {
        "home": "/",
        "tournament": "/tournaments/1/",
        "series": "/series/1/",
        "game": f"/games/{game}/?turn=20",
        "player": "/players/1/",
    }
    try:
        for _ in range(300):  # a busy machine starts the server slowly
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.2)
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            for label, (width, height) in WIDTHS.items():
                page = browser.new_page(viewport={"width": width, "height": height}, locale="cs-CZ")
                for name, path in pages.items():
                    page.goto(base + path)
                    target = OUT / f"{name}-{label}.png"
                    page.screenshot(path=str(target), full_page=False)
                    print(target.relative_to(ROOT))
                # the replay page's pip chart and a player's dice statistics
                for name, (path, part) in STATS_PARTS.items():
                    page.goto(base + path.format(game=game))
                    target = OUT / f"{name}-{label}.png"
                    page.locator(part).screenshot(path=str(target))
                    print(target.relative_to(ROOT))
                # the bracket (SVG) and the hall view
                page.goto(f"{base}/tournaments/{knockout}/")
                target = OUT / f"bracket-{label}.png"
                page.locator("section:has(#bracket-heading)").screenshot(path=str(target))
                print(target.relative_to(ROOT))
                # a refusal in Czech, seen by a director
                refusal(page, base, series, OUT / f"refusal-cs-{label}.png")
                page.context.clear_cookies()
                page.close()
            for label, (width, height) in HALL_SIZES.items():
                page = browser.new_page(viewport={"width": width, "height": height}, locale="cs-CZ")
                page.goto(f"{base}/tournaments/2/hall/")
                page.wait_for_selector("#live[data-state='live']")
                target = OUT / f"hall-{label}.png"
                page.screenshot(path=str(target), full_page=False)
                print(target.relative_to(ROOT))
                page.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
