"""A game's verification note as data (a code and params, tournaments/wording/verification.py)
instead of English text: the texts the app wrote are converted, any other
(an engine's refusal told in English) is kept as it was under the code ``text``. The
parser is a frozen copy of what the app wrote until now, so that later changes of the app
do not change this migration."""

import re

from django.db import migrations, models

from tournaments.models.triggers import create_triggers, drop_triggers

TOLD = (
    r"(?:draw|(?P<{p}side>white|black) (?P<{p}kind>oin|mars|koks))"
    r"(?P<{p}ended> by resignation| \(double dropped\))?"
)
OK = re.compile(r"ok, " + TOLD.format(p="") + r"(?: \(irregular: (?P<irregular>[^)]*)\))?")
TURN = re.compile(r"turn (\d+) (white|black) accepted")
PLAYERS = re.compile(
    r"the record has (?P<record_white>.*) with white and (?P<record_black>.*) with black, "
    r"the stored game (?P<white>.*) and (?P<black>.*)"
)
DIFFERS = re.compile(
    r"the record tells " + TOLD.format(p="t") + r", but the stored result is "
    r"(?:draw|(?P<sside>white|black) (?P<skind>oin|mars|koks))"
    r"(?: \((?P<sended>resignation|double dropped)\))?(?:, cube (?P<scube>\d+))?"
)
ENDED = {None: "played", " by resignation": "resigned", " (double dropped)": "dropped",
         "resignation": "resigned", "double dropped": "dropped"}  # fmt: skip
CORRECTED = "corrected by hand: the record no longer matches the result"


def told(match, p, cube):
    return {"winner": match.group(f"{p}side"), "kind": match.group(f"{p}kind") or "draw",
            "ended": ENDED[match.group(f"{p}ended")], "cube": cube, "irregular": []}  # fmt: skip


def note_from_text(text, cube=1):
    if not text:
        return {}
    if text == CORRECTED:
        return {"code": "corrected", "params": {}}
    if match := OK.fullmatch(text):
        params = told(match, "", cube)
        params["irregular"] = [[int(n), s] for n, s in TURN.findall(match["irregular"] or "")]
        return {"code": "verified", "params": params}
    if match := PLAYERS.fullmatch(text):
        return {"code": "players-differ", "params": match.groupdict()}
    if match := DIFFERS.fullmatch(text):
        stored = told(match, "s", int(match["scube"] or 1))
        return {"code": "result-differs", "params": {"told": told(match, "t", 1), "stored": stored}}
    return {"code": "text", "params": {"text": text}}


def forwards(apps, schema_editor):
    Game = apps.get_model("tournaments", "Game")
    games = Game.objects.exclude(verification="").only("pk", "verification", "cube")
    for game in games.iterator(chunk_size=500):
        game.verification_note = note_from_text(game.verification, game.cube)
        game.save(update_fields=["verification_note"])


def backwards(apps, schema_editor):
    """Back to text, in English (the app's words before this migration)."""
    from django.utils import translation

    from tournaments.wording.verification import verification_text

    Game = apps.get_model("tournaments", "Game")
    with translation.override("en"):
        for game in Game.objects.exclude(verification_note={}).iterator(chunk_size=500):
            game.verification = verification_text(game.verification_note)
            game.save(update_fields=["verification"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_job_language"),
    ]

    operations = [
        # SQLite rebuilds tournaments_game below (the removed column): the trigger naming
        # it must go first and come back last (tournaments/models/triggers.py)
        migrations.RunPython(drop_triggers, create_triggers),
        migrations.AddField(
            model_name="game",
            name="verification_note",
            field=models.JSONField(blank=True, default=dict, verbose_name="verification message"),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(
            model_name="game",
            name="verification",
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
