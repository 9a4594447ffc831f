"""How the app names the game's words in the reader's language: sides, variants,
outcomes (the one result text) and bracket stages. Pure text: no models, no
engine, so that models, selectors, services and templates can all use it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

SIDES = {"white": gettext_lazy("white"), "black": gettext_lazy("black")}
VARIANTS = {
    "long": gettext_lazy("long nardy"),
    "short": gettext_lazy("short backgammon"),
    "lurc": gettext_lazy("Lurč"),
}
KINDS = {
    "oin": gettext_lazy("oin"),
    "mars": gettext_lazy("mars"),
    "koks": gettext_lazy("koks"),
    "draw": gettext_lazy("draw"),
}
# a variant where every win is one point (declares no gammons: Lurč, Z11) has no oin or
# mars, only a win
SINGLE_WIN = gettext_lazy("win")
# the bot's levels (engine/evaluator/levels.py), weakest first
BOT_LEVEL_NAMES = {
    "beginner": pgettext_lazy("bot level", "beginner"),
    "casual": pgettext_lazy("bot level", "casual"),
    "intermediate": pgettext_lazy("bot level", "intermediate"),
    "advanced": pgettext_lazy("bot level", "advanced"),
    "strongest": pgettext_lazy("bot level", "strongest"),
}
# GNU Backgammon's own levels (its predefined players), the short backgammon bot's
GNUBG_LEVEL_NAMES = {
    "gnubg-beginner": pgettext_lazy("bot level", "gnubg beginner"),
    "gnubg-intermediate": pgettext_lazy("bot level", "gnubg intermediate"),
    "gnubg-expert": pgettext_lazy("bot level", "gnubg expert"),
    "gnubg-worldclass": pgettext_lazy("bot level", "gnubg world class"),
}
ENDINGS = {
    "played": gettext_lazy("played out"),
    "resigned": gettext_lazy("resignation"),
    "dropped": gettext_lazy("double dropped"),
    "timeout": gettext_lazy("time ran out"),
}


# a background job's stage: the ``desc`` its services give their progress (stored on the
# job as this code), said in the reader's language on the job's page and in the API
JOB_STAGES = {
    "games": pgettext_lazy("job stage", "games"),
    "series": pgettext_lazy("job stage", "series"),
    "players": pgettext_lazy("job stage", "players"),
    "verifying": pgettext_lazy("job stage", "verifying"),
    "analysing": pgettext_lazy("job stage", "analysing"),
}


def job_stage_name(stage: str) -> str:
    """A job's stage in the reader's language; an unknown one as it is."""
    return str(JOB_STAGES.get(stage, stage))


def side_name(side: str) -> str:
    """``white`` / ``black`` in the reader's language; anything else as it is."""
    return str(SIDES.get(side, side))


def bot_level_name(level: str) -> str:
    """A bot level's name in the reader's language; an unknown one as it is."""
    name = BOT_LEVEL_NAMES.get(level) or GNUBG_LEVEL_NAMES.get(level)
    return str(name) if name is not None else level


def variant_name(variant: str) -> str:
    return str(VARIANTS.get(variant, variant))


def kind_label(kind: str, *, gammons: bool = True) -> str:
    """An outcome's name in the reader's language; where the variant declares no gammons
    (every win one point), a win is just a win."""
    if not gammons and kind in ("oin", "mars", "koks"):
        return str(SINGLE_WIN)
    return str(KINDS.get(kind, kind))


def result_text(
    *,
    winner: str | None,
    kind: str,
    ended: str = "played",
    cube: int = 1,
    with_winner: bool = True,
    gammons: bool = True,
) -> str:
    """THE text of a game's result, wherever it is shown (game and series pages, the
    replay, verification notes, engine messages): ``Vyhrál(a) Novák (mars), kostka 2,
    vzdáním``. ``winner`` is a name or a side (``white``), ``None`` for a draw;
    without ``with_winner`` only the kind (``mars, kostka 2``) for a table's column."""
    if not with_winner or kind == "draw":
        parts = [kind_label(kind, gammons=gammons)]
    elif winner is None:
        parts = [str(KINDS["draw"])]
    else:
        parts = [
            gettext("%(winner)s won (%(kind)s)")
            % {"winner": side_name(winner), "kind": kind_label(kind, gammons=gammons)}
        ]
    if cube > 1:
        parts.append(gettext("cube %(value)s") % {"value": cube})
    if ended != "played":
        parts.append(str(ENDINGS.get(ended, ended)))
    return ", ".join(parts)


def result_tag_text(result: str, ended: str = "played") -> str:
    """A ``Result`` tag's value (``white mars``, ``draw``) as :func:`result_text`."""
    side, _, kind = result.partition(" ")
    if result == "draw" or not kind:
        return result_text(winner=None, kind="draw", ended=ended)
    return result_text(winner=side, kind=kind, ended=ended)


# bracket stages -------------------------------------------------------------


def stage_name(*, bracket: str, round: int, stage: str) -> str:
    """THE display name of a bracket stage, from a ``BracketMatch``'s ``bracket``,
    ``round`` and ``stage`` (tournaments/pairing/elimination.py): "čtvrtfinále",
    "finále - opakování" (the grand final's reset), "o 3. místo", "1. kolo vítězů"…"""
    if bracket == "final":  # the grand final of a double elimination, then its reset
        return gettext("final (reset)") if round > 1 else gettext("final")
    fixed = {
        "final": gettext("final"),
        "semifinal": gettext("semifinal"),
        "quarterfinal": gettext("quarterfinal"),
        "third-place": gettext("3rd place"),
        "winners-final": gettext("winners' final"),
        "losers-final": gettext("losers' final"),
        "consolation-final": gettext("consolation final"),
    }
    if stage in fixed:
        return fixed[stage]
    name, _, number = stage.rpartition("round-")
    if not number.isdigit():
        return stage
    rounds = {
        "": gettext("round %(n)s"),
        "winners-": gettext("winners' round %(n)s"),
        "losers-": gettext("losers' round %(n)s"),
        "consolation-": gettext("consolation round %(n)s"),
    }
    return rounds.get(name, gettext("round %(n)s")) % {"n": int(number)}


# pairing explanations ---------------------------------------------------------

PAIRING_REASONS = {
    "same-group": gettext_lazy(
        "%(first)s and %(second)s both have %(score)s: paired inside their score group"
    ),
    "floated": gettext_lazy(
        "%(first)s (%(first_score)s) floated down to score group %(group)s to play "
        "%(second)s: %(cause)s"
    ),
    "odd-group": gettext_lazy("score group %(score)s has an odd number of players"),
    "odd-above": gettext_lazy("an odd number of players (%(count)s) have %(score)s points or more"),
    "group-blocked": gettext_lazy(
        "the players of score group %(score)s cannot all be paired among themselves "
        "(earlier meetings or prohibited pairs)"
    ),
    "fewest-floats": gettext_lazy(
        "the fewest floats that give every player of the round a legal opponent"
    ),
    "bye-lowest": gettext_lazy(
        "%(player)s (%(score)s) has the bye: the lowest-placed player who has not had one"
    ),
    "bye-others-paired": gettext_lazy(
        "%(player)s (%(score)s) has the bye: lower-placed players without a bye are paired, "
        "so that everyone else has a legal opponent with the fewest floats"
    ),
    "bye": gettext_lazy("a bye"),
    "berger": gettext_lazy("round robin, Berger table round %(round)s"),
    "berger-bye": gettext_lazy("round robin: a bye (Berger table)"),
    "bracket": gettext_lazy("bracket: %(stage)s"),
    "bracket-bye": gettext_lazy("a bye in the bracket"),
    "director": gettext_lazy("changed by the director"),
}
PLAYER_PARAMS = ("first", "second", "player")


def pairing_reason(pairing: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """Why a series was paired, in the reader's language and with the players' names
    (``names``: player id -> name): from the ``why`` the pairing stored (code and
    params); a pairing stored before there were codes keeps its English ``reason``."""
    why = pairing.get("why") if isinstance(pairing, Mapping) else None
    if not isinstance(why, Mapping) or why.get("code") not in PAIRING_REASONS:
        reason = pairing.get("reason", "") if isinstance(pairing, Mapping) else ""
        return str(reason)
    params = dict(why.get("params") or {})
    for key in PLAYER_PARAMS:
        if key in params:
            params[key] = names.get(params[key], f"#{params[key]}")
    if isinstance(params.get("cause"), Mapping):
        params["cause"] = pairing_reason({"why": params["cause"]}, names)
    if why["code"] == "bracket":
        params["stage"] = stage_name(
            bracket=str(params.get("bracket", "")),
            round=int(params.get("round", 1)),
            stage=str(params.get("stage", "")),
        )
    return str(PAIRING_REASONS[why["code"]]) % params
