"""A game's verification note as data, said in the reader's language.

``Game.verification_note`` stores what the engine found as a ``code`` and its
``params`` (plain JSON), never as English text; :func:`verification_text` says it when it
is shown (the game page's badge, the API, the archive, commands). The codes:

``verified``          the record verifies and tells the stored result: ``winner`` (a
                      side or None), ``kind``, ``ended``, ``cube``, ``irregular`` (the
                      accepted turns as ``[turn, side]`` pairs)
``corrected``         the result was corrected by hand; the record no longer tells it
``players-differ``    the record names other players: ``record_white``,
                      ``record_black``, ``white``, ``black``
``result-differs``    the record tells another result: ``told`` and ``stored``, each a
                      result as under ``verified``
``refused``           the record does not verify: ``error`` (the engine's code, params,
                      rule and turn, told by engine_messages), ``line``, ``col`` and the
                      ``message`` said when it was found (for an error the engine did not
                      raise, and an engine newer than the message table)
``text``              a note stored before there were codes, kept as it was: ``text``
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

from django.utils.translation import gettext

from tournaments.wording.engine_errors import engine_message, has_translation
from tournaments.wording.names import result_text, side_name

Note = dict[str, Any]


def note(code: str, **params: Any) -> Note:
    return {"code": code, "params": params}


def result_params(
    *,
    winner: str | None,
    kind: str,
    ended: str,
    cube: int,
    irregular: Sequence[tuple[int, str]] = (),
) -> dict[str, Any]:
    return {
        "winner": winner, "kind": kind, "ended": ended, "cube": cube,
        "irregular": [[n, side] for n, side in irregular],
    }  # fmt: skip


def _result(params: Mapping[str, Any], gammons: bool = True) -> str:
    text = result_text(
        winner=params.get("winner"),
        kind=str(params.get("kind", "")),
        ended=str(params.get("ended", "played")),
        cube=int(params.get("cube") or 1),
        gammons=gammons,
    )
    turns = [
        gettext("turn %(n)s %(side)s accepted") % {"n": n, "side": side_name(str(side))}
        for n, side in params.get("irregular") or []
    ]
    if turns:
        text += " " + gettext("(irregular: %(turns)s)") % {"turns": ", ".join(turns)}
    return text


def _refused(params: Mapping[str, Any]) -> str:
    error = params.get("error")
    message = str(params.get("message", ""))
    if isinstance(error, Mapping) and has_translation(str(error.get("code"))):
        fields: dict[str, Any] = {
            "params": {},
            "rule": None,
            "turn": None,
            "side": None,
            "dice": None,
        }
        fields.update(error)
        message = engine_message(SimpleNamespace(**fields, message=message, line=None, col=None))
    line, col = params.get("line"), params.get("col")
    if line is None:
        return message
    if col:
        return gettext("line %(line)s, col %(col)s: %(message)s") % {
            "line": line, "col": col, "message": message}  # fmt: skip
    return gettext("line %(line)s: %(message)s") % {"line": line, "message": message}


CODES = ("verified", "corrected", "players-differ", "result-differs", "refused", "text")


def is_note(stored: Mapping[str, Any]) -> bool:
    """Whether data from outside (an archive) is a note this module can say."""
    if set(stored) != {"code", "params"} or stored["code"] not in CODES:
        return False
    if not isinstance(stored["params"], Mapping):
        return False
    try:
        _said(stored)
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    return True


def verification_text(stored: Mapping[str, Any] | None, *, gammons: bool = True) -> str:
    """The note in the active language; an empty note (never verified) is ``""``.
    ``gammons``: the game's variant knows oin and mars (Lurč does not: "win")."""
    if not stored:
        return ""
    try:
        return _said(stored, gammons)
    except (KeyError, TypeError, ValueError, AttributeError):  # not a note: say what it holds
        return str(stored.get("params", {}).get("text", "")) if is_mapping(stored) else ""


def is_mapping(value: object) -> bool:
    return isinstance(value, Mapping) and isinstance(value.get("params"), Mapping)


def _said(stored: Mapping[str, Any], gammons: bool = True) -> str:
    code, params = stored.get("code"), stored.get("params") or {}
    if code == "verified":
        return gettext("ok, %(result)s") % {"result": _result(params, gammons)}
    if code == "corrected":
        return gettext("corrected by hand: the record no longer matches the result")
    if code == "players-differ":
        return gettext(
            "the record has %(record_white)s with white and %(record_black)s with black, "
            "the stored game %(white)s and %(black)s"
        ) % {k: params.get(k, "?") for k in ("record_white", "record_black", "white", "black")}
    if code == "result-differs":
        return gettext("the record tells %(told)s, but the stored result is %(stored)s") % {
            "told": _result(params.get("told") or {}, gammons),
            "stored": _result(params.get("stored") or {}, gammons),
        }
    if code == "refused":
        return _refused(params)
    return str(params.get("text", ""))


# notes stored as English text before there were codes (migration 0013, old archives) ------

_TOLD = (
    r"(?:draw|(?P<{p}side>white|black) (?P<{p}kind>oin|mars|koks))"
    r"(?P<{p}ended> by resignation| \(double dropped\))?"
)
_OK = re.compile(r"ok, " + _TOLD.format(p="") + r"(?: \(irregular: (?P<irregular>[^)]*)\))?")
_TURN = re.compile(r"turn (\d+) (white|black) accepted")
_PLAYERS = re.compile(
    r"the record has (?P<record_white>.*) with white and (?P<record_black>.*) with black, "
    r"the stored game (?P<white>.*) and (?P<black>.*)"
)
_DIFFERS = re.compile(
    r"the record tells " + _TOLD.format(p="t") + r", but the stored result is "
    r"(?:draw|(?P<sside>white|black) (?P<skind>oin|mars|koks))"
    r"(?: \((?P<sended>resignation|double dropped)\))?(?:, cube (?P<scube>\d+))?"
)
_ENDED = {None: "played", " by resignation": "resigned", " (double dropped)": "dropped",
          "resignation": "resigned", "double dropped": "dropped"}  # fmt: skip
CORRECTED = "corrected by hand: the record no longer matches the result"


def _told(match: re.Match[str], p: str, cube: int) -> dict[str, Any]:
    side = match.group(f"{p}side")
    return result_params(winner=side, kind=match.group(f"{p}kind") or "draw",
                         ended=_ENDED[match.group(f"{p}ended")], cube=cube)  # fmt: skip


def note_from_text(text: str, *, cube: int = 1) -> Note:
    """A note stored as English text, as data: the texts this app wrote (``ok, white
    mars``, a correction by hand, a record that disagrees with the stored game); any
    other text (an engine's refusal, a text in another language) is kept as it is.
    ``cube`` is the game's: the ``ok`` texts left it out."""
    if not text:
        return {}
    if text == CORRECTED:
        return note("corrected")
    if match := _OK.fullmatch(text):
        params = _told(match, "", cube)
        params["irregular"] = [[int(n), s] for n, s in _TURN.findall(match["irregular"] or "")]
        return note("verified", **params)
    if match := _PLAYERS.fullmatch(text):
        return note("players-differ", **match.groupdict())
    if match := _DIFFERS.fullmatch(text):
        stored = _told(match, "s", int(match["scube"] or 1))
        return note("result-differs", told=_told(match, "t", 1), stored=stored)
    return note("text", text=text)
