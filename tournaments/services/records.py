"""The records service: a record read and checked by the engine under a tournament's rules
(tags, limits, the verdict stored with a game). It reaches the engine through
:mod:`tournaments.engine`, the app's one door to it (STYLE.md 4)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext

from tournaments import engine
from tournaments.engine import (
    LIMIT_NAMES,
    RULE_OPTIONS,
    SIDE_NAMES,
    GameRecord,
    ReadLimits,
    RecordTooLargeError,
    read_records,
    variant_named,
)
from tournaments.models import Tournament, Variant
from tournaments.services.errors import ApplicationError
from tournaments.wording.rule_options import SERIES_OPTIONS, TOURNAMENT_OPTIONS


@dataclass(frozen=True)
class CheckedGame:
    """A record the engine verified: who had which colour and how the game ended."""

    white: str
    black: str
    winner: str | None  # "white", "black" or None for a draw
    kind: str  # oin, mars, koks, draw
    ended: str  # played, resigned, dropped
    cube: int
    text: str  # the canonical record as stored
    tags: dict[str, str]
    # the turns the opponent accepted as played, (turn number, side), in the order played
    irregular: tuple[tuple[int, str], ...] = ()


def has_option(tournament: Tournament, name: str) -> bool:
    """Whether the games of ``tournament`` have the engine's rule option ``name`` (long
    nardy has no cube, short backgammon no block rule, Lurč neither)."""
    return RULE_OPTIONS[name].applies_to(variant_named(tournament.variant))


def tournament_tags(tournament: Tournament) -> dict[str, str]:
    """The rule tags a record of this tournament must carry (or gets, when absent): one
    per tournament option its game has, in the engine's order."""
    return {
        option.tag: option.written(getattr(tournament, option.name))
        for option in TOURNAMENT_OPTIONS
        if has_option(tournament, option.name)
    }


def match_tags(*, length: int, crawford: bool) -> dict[str, str]:
    """The tags of a game of a series to ``length`` points with the cube (S7): the
    options that the series sets, not the tournament (rule_options.SERIES_OPTIONS)."""
    values = {"match_length": length, "crawford": crawford}
    return {RULE_OPTIONS[name].tag: RULE_OPTIONS[name].written(values[name])
            for name in SERIES_OPTIONS}  # fmt: skip


class RecordTooLarge(ApplicationError):
    """A record over one of the reader's limits (``NARDY_RECORD_LIMITS``): HTTP 413."""

    def __init__(self, exc: RecordTooLargeError) -> None:
        super().__init__(
            gettext("the record is over the limit %(limit)s = %(value)s"),
            code="record-too-large",
            params={"limit": exc.limit, "value": exc.value},
            field="record",
            line=exc.line,
            col=exc.col,
        )
        self.limit = exc.limit
        self.value = exc.value


def record_limits() -> ReadLimits:
    """What a record from outside may hold: the engine's safe defaults, each changed by
    ``settings.NARDY_RECORD_LIMITS`` (``{"max_tags": 100, ...}``; None switches one off)."""
    chosen = getattr(settings, "NARDY_RECORD_LIMITS", {})
    known = set(LIMIT_NAMES)
    unknown = set(chosen) - known
    if unknown:
        raise ValueError(f"NARDY_RECORD_LIMITS: unknown limit {sorted(unknown)[0]!r}")
    return ReadLimits(**{name: chosen.get(name, getattr(ReadLimits(), name)) for name in known})


def verify_text(text: str) -> list[engine.Replay | engine.RecordSyntaxError]:
    """Every game of a record text verified, within the record limits (RecordTooLarge)."""
    try:
        return engine.verify_text(text, record_limits())
    except RecordTooLargeError as exc:
        raise RecordTooLarge(exc) from None


def parse_one_record(text: str) -> GameRecord:
    """Exactly one game from ``text``, or a ApplicationError located in the text (a
    RecordTooLarge over the record limits)."""
    try:
        records = read_records(text, record_limits())
    except RecordTooLargeError as exc:
        raise RecordTooLarge(exc) from None
    except engine.RecordSyntaxError as exc:
        raise ApplicationError.from_engine(exc, field="record") from None
    if len(records) != 1:
        raise ApplicationError(
            gettext("a game result holds exactly one game; this text holds %(count)s"),
            code="record-not-one-game",
            params={"count": len(records)},
            field="record",
        )
    return records[0]


def check_record(
    text: str, *, tournament: Tournament, match_tags: dict[str, str] | None = None
) -> CheckedGame:
    """Verify a record for a game of ``tournament``: the engine replays it; its variant
    and rule tags must agree with the tournament (absent rule tags take the tournament's
    values, and ``match_tags`` - MatchLength, Crawford - the series'); it must be a
    finished game."""
    record = parse_one_record(text)
    if record.variant != tournament.variant:
        raise ApplicationError(
            gettext("the record is for %(record_variant)s but the tournament plays %(variant)s"),
            code="record-wrong-variant",
            params={
                "record_variant": dict(Variant.choices).get(record.variant, record.variant),
                "variant": tournament.get_variant_display(),
            },
            field="record",
            line=record.line,
            col=1,
        )
    expected = tournament_tags(tournament) | (match_tags or {})
    tags = dict(record.tags)
    for name, value in expected.items():
        given = tags.get(name)
        if given is not None and given != value:
            raise ApplicationError(
                gettext('the record says [%(tag)s "%(given)s"] but the series plays "%(value)s"'),
                code="record-tag-differs",
                params={"tag": name, "given": given, "value": value},
                field="record",
                line=record.line,
                col=1,
            )
        if given is None:
            tags[name] = value
    if "Result" not in tags:
        # a scoresheet record may leave the result out: the engine computes it
        first = engine.replay(
            GameRecord(tuple(tags.items()), record.actions, record.line, record.preamble),
            check_result=False,
        )
        if first.error is None and first.outcome is not None:
            tags["Result"] = first.outcome.result
    record = GameRecord(tuple(tags.items()), record.actions, record.line, record.preamble)
    result = engine.replay(record)
    if result.error is not None:
        err = result.error
        raise ApplicationError.from_engine(err, field="record")
    outcome = result.outcome
    if outcome is None:
        raise ApplicationError(
            gettext(
                "the record does not finish the game: enter a finished game, or use quick entry"
            ),
            code="record-unfinished",
            field="record",
        )
    winner = None if outcome.winner is None else SIDE_NAMES[outcome.winner]
    return CheckedGame(
        white=tags.get("White", "?"),
        black=tags.get("Black", "?"),
        winner=winner,
        kind=outcome.kind,
        ended=outcome.ended,
        cube=outcome.cube,
        text=result.canonical(),
        tags=tags,
        irregular=tuple((n, SIDE_NAMES[side]) for n, side in result.irregular),
    )
