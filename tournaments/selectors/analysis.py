"""The analysis shown with a game (GameAnalysis): each player's figures with the
luck-adjusted result, each turn's marks with the best play drawn on a board, and the
equity chart; and the same figures summed over a set of games (series, player,
tournament). Reading only; tournaments/services/analysis.py stores them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from tournaments.board import board_label, board_pieces
from tournaments.engine import Position, read_records, replay
from tournaments.models import Game, GameAnalysis, Player, points_of
from tournaments.selectors.access import User, visible_tournaments

# gnubg's marks of a roll's luck, in mp: very lucky / lucky, unlucky / very unlucky
LUCKY, VERY_LUCKY = 300, 600
MARKS = ("doubtful", "bad", "very_bad")


def mark_text(mark: str | None) -> str:
    return {"doubtful": _("doubtful"), "bad": _("bad"), "very_bad": _("very bad")}.get(
        mark or "", ""
    )


def mark_words(mark: str | None) -> str:
    """A play's mark as a club player says it ("a bad move"), for the replay's moves."""
    return {
        "doubtful": _("doubtful move"), "bad": _("bad move"), "very_bad": _("very bad move"),
    }.get(mark or "", "")  # fmt: skip


def luck_words_of(luck: int) -> str:
    """A roll's luck as a club player says it ("a lucky roll"), or ""."""
    if luck >= VERY_LUCKY:
        return _("very lucky roll")
    if luck >= LUCKY:
        return _("lucky roll")
    if luck <= -VERY_LUCKY:
        return _("very unlucky roll")
    if luck <= -LUCKY:
        return _("unlucky roll")
    return ""


def luck_mark(luck: int) -> tuple[str, str]:
    """A roll's luck as gnubg marks it: (css class, words) or ("", "")."""
    if luck >= VERY_LUCKY:
        return "very-lucky", _("very lucky")
    if luck >= LUCKY:
        return "lucky", _("lucky")
    if luck <= -VERY_LUCKY:
        return "very-unlucky", _("very unlucky")
    if luck <= -LUCKY:
        return "unlucky", _("unlucky")
    return "", ""


@dataclass(frozen=True, slots=True)
class TurnMark:
    frame: int  # the replay's position after this turn (?turn=)
    number: int
    side: str
    dice: str
    played: str
    best: str
    error: int
    mark: str
    mark_text: str
    luck: int
    luck_class: str
    luck_text: str
    best_pieces: str  # the best play's pieces (a marked turn only), drawn beside the
    # replay's board on its shared frame (_replay.html)
    best_label: str  # its accessible name
    mark_words: str  # "bad move", "lucky roll": the replay's move list
    luck_words: str

    def key(self) -> tuple[object, ...]:
        """What the replay's move list shows of the mark (its cache key)."""
        return (self.frame, self.mark, self.error, self.luck, self.best, self.best_pieces)


@dataclass(frozen=True, slots=True)
class EquityChart:
    width: int
    height: int
    line: str  # white's equity after each turn, points "x,y ..."
    zero: float
    dots: list[tuple[float, float, int, str, str]]  # x, y, frame, mark class, label
    # the scale: (y, "+1") for the points of equity, (x, "10") for the turns' numbers
    # the scale's lines: y, label, and whether a phone labels it too (every other one)
    levels: tuple[tuple[float, str, bool], ...] = ()
    turn_marks: tuple[tuple[float, str], ...] = ()


@dataclass
class Figures:
    """One player's figures over one game or many."""

    error_total: float = 0.0
    unforced: int = 0  # moves with a choice (0 where gnubg's rate is all that is known)
    weight: int = 0  # what error_total is averaged over: unforced, or 1 a gnubg game
    errors: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))
    luck: float = 0.0
    turns: int = 0
    result: float = 0.0  # points won minus points lost
    adjusted: float = 0.0  # the result minus (own luck - the opponent's luck), in points
    games: int = 0

    @property
    def error_rate(self) -> float:
        return self.error_total / self.weight if self.weight else 0.0

    @property
    def luck_rate(self) -> float:
        return self.luck / self.turns if self.turns else 0.0

    @property
    def luck_points(self) -> float:
        return self.luck / 1000


@dataclass(frozen=True, slots=True)
class GameAnalysisPage:
    analysis: GameAnalysis
    white: Figures
    black: Figures
    marks: list[TurnMark]
    chart: EquityChart | None
    rows: list[tuple[str, Figures]]


def _result(game: Game, side: str) -> float:
    if game.winner_id is None or game.kind == "draw":
        return 0.0
    points = points_of(game.kind, game.cube)
    won = game.winner_id == (game.white_id if side == "white" else game.black_id)
    return float(points if won else -points)


def game_figures(game: Game, analysis: GameAnalysis, side: str) -> Figures:
    """One side's figures of an analysed game (the evaluator's summary, or gnubg's rates
    where only those are known)."""
    return side_figures(analysis, side, _result(game, side))


def side_figures(analysis: GameAnalysis, side: str, result: float) -> Figures:
    """One side's figures of an analysis, ``result`` the points it won (negative: lost)
    in the game: a tournament game's, or a game against the bot's."""
    summary = analysis.sides.get(side) or {}
    rate = analysis.white_error_rate if side == "white" else analysis.black_error_rate
    luck_rate = analysis.white_luck_rate if side == "white" else analysis.black_luck_rate
    unforced = int(summary.get("unforced", 0))
    weight = unforced if summary else 1
    luck = analysis.white_luck if side == "white" else analysis.black_luck
    turns = sum(1 for t in analysis.turns if t.get("side") == side) or 1
    own = luck if luck is not None else luck_rate * turns
    other = "black" if side == "white" else "white"
    return Figures(
        error_total=rate * weight, unforced=unforced, weight=weight,
        errors={m: int((summary.get("errors") or {}).get(m, 0)) for m in MARKS},
        luck=own, turns=turns, result=result,
        adjusted=result - (own - _luck(analysis, other)) / 1000, games=1,
    )  # fmt: skip


def _luck(analysis: GameAnalysis, side: str) -> float:
    luck = analysis.white_luck if side == "white" else analysis.black_luck
    if luck is not None:
        return float(luck)
    rate = analysis.white_luck_rate if side == "white" else analysis.black_luck_rate
    return rate * (sum(1 for t in analysis.turns if t.get("side") == side) or 1)


def _frames_of_turns(record: str) -> list[int]:
    """The replay's frame after each rolled turn, in the analysis's order."""
    games = read_records(record)
    if not games:
        return []
    played = replay(games[0], check_result=False).played
    return [i for i, p in enumerate(played, start=1)
            if p.action.kind == "turn" and p.action.dice is not None]  # fmt: skip


def _chart(turns: list[dict[str, object]], frames: list[int]) -> EquityChart | None:
    if not turns:
        return None
    width, height, step = 600, 160, 600 / max(1, len(turns))
    values = []
    for t in turns:  # white's equity after each turn, in points, -3..3 shown
        eq = float(t.get("equity") or 0) / 1000  # type: ignore[arg-type]
        values.append(eq if t.get("side") == "white" else -eq)
    top = max(1.0, min(3.0, max(abs(v) for v in values)))

    def y(v: float) -> float:
        return round(float(height / 2 - max(-top, min(top, v)) / top * (height / 2 - 6)), 1)

    dots = []
    for i, (t, v) in enumerate(zip(turns, values, strict=True)):
        mark = str(t.get("mark") or "")
        label = f"{t.get('turn')}. {t.get('played')} ({v:+.2f})"
        frame = frames[i] if i < len(frames) else 0
        dots.append((round((i + 1) * step, 1), y(v), frame, mark.replace("_", "-"), label))
    line = " ".join(f"{x},{yy}" for x, yy, *_rest in dots)
    step_points = 0.5 if top <= 1.5 else 1.0
    levels = []
    for n in range(-int(top / step_points), int(top / step_points) + 1):
        value = n * step_points
        text = number_format(abs(value), decimal_pos=1 if step_points < 1 else 0)
        sign = "+" if value > 0 else "\N{MINUS SIGN}" if value < 0 else ""
        levels.append((y(value), sign + text, n % 2 == 0))  # every other one: a phone's
    numbers = [int(str(t.get("turn") or 0)) if str(t.get("turn") or "").isdigit() else 0
               for t in turns]  # fmt: skip
    every = 5 if max(numbers, default=0) <= 40 else 10
    turn_marks, seen = [], set()
    for (x, *_rest), number in zip(dots, numbers, strict=True):
        if number and number % every == 0 and number not in seen:
            seen.add(number)
            turn_marks.append((x, str(number)))
    return EquityChart(width, height, f"0,{y(0)} {line}", y(0), dots, tuple(levels),
                       tuple(turn_marks))  # fmt: skip


@dataclass(frozen=True, slots=True)
class RecordAnalysis:
    """What a record's analysis adds to its replay: the marked turns and the chart."""

    marks: list[TurnMark]
    chart: EquityChart | None


def record_analysis(record: str, analysis: GameAnalysis) -> RecordAnalysis:
    """The marked turns of an analysed record, with the best play's pieces for each error,
    and the equity chart (no query; one replay for the marks' places): a tournament
    game's or a game against the bot's."""
    frames = _frames_of_turns(record) if analysis.turns and record else []
    marks = []
    for i, t in enumerate(analysis.turns):
        luck = int(t.get("luck", 0))
        luck_class, luck_text = luck_mark(luck)
        mark = t.get("mark") or ""
        if not mark and not luck_class:
            continue
        best_pieces = best_label = ""
        dice = t.get("dice") or []
        if mark and t.get("best_position"):
            best_label = _("the best play: %(play)s") % {"play": t["best"]}
            best = Position.from_json(t["best_position"])
            mover = 0 if t["side"] == "white" else 1
            best_pieces = board_pieces(best, dice=dice, dice_side=mover)
            best_label = f"{best_label}. {board_label(best)}"
        marks.append(TurnMark(
            frames[i] if i < len(frames) else 0, int(t["turn"]), str(t["side"]),
            "".join(str(d) for d in dice), str(t["played"]), str(t["best"]),
            int(t.get("error", 0)), mark.replace("_", "-"), mark_text(mark), luck, luck_class,
            luck_text, best_pieces, best_label, mark_words(mark),
            luck_words_of(luck),
        ))  # fmt: skip
    return RecordAnalysis(marks, _chart(analysis.turns, frames))


def game_analysis_page(game: Game, analysis: GameAnalysis) -> GameAnalysisPage:
    """The game's analysis for its page (no query; one replay for the marks' places)."""
    found = record_analysis(game.record, analysis)
    white, black = game_figures(game, analysis, "white"), game_figures(game, analysis, "black")
    rows = [(str(game.white), white), (str(game.black), black)]
    return GameAnalysisPage(analysis, white, black, found.marks, found.chart, rows)


def players_figures(games: Iterable[Game]) -> dict[int, Figures]:
    """Each player's figures summed over the analysed games (``game.analysis`` fetched
    with the games: select_related("analysis"))."""
    out: dict[int, Figures] = {}
    for game in games:
        analysis = getattr(game, "analysis", None)
        if analysis is None:
            continue
        for side, player in (("white", game.white_id), ("black", game.black_id)):
            one = game_figures(game, analysis, side)
            total = out.setdefault(player, Figures())
            total.error_total += one.error_total
            total.unforced += one.unforced
            total.weight += one.weight
            for m in MARKS:
                total.errors[m] += one.errors[m]
            total.luck += one.luck
            total.turns += one.turns
            total.result += one.result
            total.adjusted += one.adjusted
            total.games += 1
    return out


def analysis_rows(games: Iterable[Game]) -> list[tuple[str, Figures]]:
    """Each player's figures over the analysed ones of ``games`` (one query for the
    analyses; the games come with their players), best luck-adjusted result first."""
    games = list(games)
    found = {a.game_id: a for a in GameAnalysis.objects.filter(game__in=[g.pk for g in games])}
    names: dict[int, str] = {}
    for game in games:
        if game.pk in found:
            game.analysis = found[game.pk]
            names[game.white_id] = str(game.white)
            names[game.black_id] = str(game.black)
    figures = players_figures(g for g in games if g.pk in found)
    return sorted(((names[p], f) for p, f in figures.items()), key=lambda r: -r[1].adjusted)


def tournament_analysis_rows(tournament_id: int) -> list[tuple[str, Figures]]:
    """The tournament's players' figures over its analysed games (two queries)."""
    games = Game.objects.filter(series__tournament_id=tournament_id, analysis__isnull=False)
    return analysis_rows(games.select_related("white", "black"))


def player_analysis(*, player: Player, user: User | None) -> Figures | None:
    """The player's figures over their analysed games in the tournaments the user may
    see (one query); None when none of them is analysed."""
    games = Game.objects.filter(
        Q(white=player) | Q(black=player),
        series__tournament__in=visible_tournaments(user), analysis__isnull=False,
    ).select_related("analysis")  # fmt: skip
    return players_figures(games).get(player.pk)


def tournament_players_figures(tournament_id: int) -> dict[int, Figures]:
    """Each player's figures over the tournament's analysed games, by player (one query)."""
    games = Game.objects.filter(series__tournament_id=tournament_id, analysis__isnull=False)
    return players_figures(games.select_related("analysis"))
