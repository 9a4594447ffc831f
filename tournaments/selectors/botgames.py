"""The pages of games against the bot (/play/, docs/play.md): the user's games, and one
game's board, dice, legal turns, last bot turn, result and analysis. Reading only;
tournaments/services/botgames.py stores them."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.board import board_svg
from tournaments.engine import (
    BotState,
    EngineError,
    bot_dice,
    bot_legal_turns,
    bot_state,
    movetext_for,
    read_records,
    replay,
)
from tournaments.models import BotGame, BotGameStatus, GameAnalysis
from tournaments.selectors.access import User, signed_in
from tournaments.selectors.analysis import (
    Figures,
    GameAnalysisPage,
    record_analysis,
    side_figures,
)
from tournaments.wording.names import bot_level_name, result_text, side_name

ANALYSIS_FIELDS = {f.name for f in GameAnalysis._meta.concrete_fields} - {"id", "game"}


@dataclass(frozen=True, slots=True)
class BotGameRow:
    game: BotGame
    level: str
    result: str
    error_rate: float | None


@dataclass(frozen=True, slots=True)
class BotGamePage:
    game: BotGame
    level: str
    board: str
    your_turn: bool
    dice: tuple[int, int] | None
    turns: list[str]  # the legal turns' movetext for the dice ("" when nothing can be played)
    # the bot's turns since the user's last one ("6-4: 24/18 24/20"), in the user's numbering
    bot_played: list[str]
    result: str
    rows: list[tuple[str, Figures]]  # the analysis table (templates/_analysis_table.html)
    evaluator: str
    # the analysis as the game page shows it (_analysis_game.html): the table, the equity
    # chart and the marked turns
    analysis: GameAnalysisPage | None


def _points(game: BotGame, side: str) -> float:
    points = 2.0 if game.kind == "mars" else 1.0
    return points if game.winner == side else -points


def bot_game_analysis(game: BotGame) -> GameAnalysis | None:
    """The finished game's analysis as a (never stored) GameAnalysis."""
    if not game.analysis:
        return None
    return GameAnalysis(**{k: v for k, v in game.analysis.items() if k in ANALYSIS_FIELDS})


def bot_result_text(game: BotGame) -> str:
    """The result as the app says every result (display.result_text): who won, oin or
    mars; empty while the game is played."""
    if game.status != BotGameStatus.FINISHED:
        return ""
    kind = result_text(winner=game.winner, kind=game.kind, ended=game.ended, with_winner=False)
    if game.winner == game.colour:
        return _("You won (%(result)s)") % {"result": kind}
    return _("The bot won (%(result)s)") % {"result": kind}


def user_error_rate(game: BotGame) -> float | None:
    analysis = game.analysis or {}
    rate = analysis.get(f"{game.colour}_error_rate")
    return float(rate) if rate is not None else None


def user_bot_games(user: User, limit: int = 50) -> list[BotGameRow]:
    """The user's games against the bot, newest first (one query)."""
    player = signed_in(user)
    if player is None:
        return []
    games = BotGame.objects.filter(user=player).order_by("-created", "-pk")[:limit]
    return [
        BotGameRow(g, bot_level_name(g.level), bot_result_text(g), user_error_rate(g))
        for g in games
    ]


def _bot_since(game: BotGame, state: BotState) -> list[str]:
    """The bot's turns after the user's last one, as ``6-4: 24/18 24/20``, written in the
    user's numbering (the board's, drawn from the user's side)."""
    record = read_records(state.record)[0]
    done = replay(record, check_result=False)
    bot = 1 if game.colour == "white" else 0
    out: list[str] = []
    for p in reversed(done.played):
        if p.side != bot:
            break
        if p.action.moves:
            text = movetext_for(p.action.text, record.variant, mover=bot, viewer=1 - bot)
        else:
            text = f"{p.action.dice_text}: —"
        out.insert(0, text)
    return out


def _analysis_page(
    game: BotGame, analysis: GameAnalysis | None, rows: list[tuple[str, Figures]]
) -> GameAnalysisPage | None:
    """The finished game's analysis as a tournament game's (the user's row first)."""
    if analysis is None:
        return None
    found = record_analysis(game.record, analysis)
    mine, bots = rows[0][1], rows[1][1]
    white, black = (mine, bots) if game.colour == "white" else (bots, mine)
    return GameAnalysisPage(analysis, white, black, found.marks, found.chart, rows)


def bot_game_page(game: BotGame) -> BotGamePage:
    """One game against the bot for its page."""
    try:
        state = bot_state(game.record)
    except EngineError:
        state = None
    playing = game.status == BotGameStatus.PLAYING and state is not None
    me = 0 if game.colour == "white" else 1
    your_turn = playing and state is not None and state.position.turn == me
    dice = bot_dice(game.seed, state.number) if your_turn and state is not None else None
    turns = [t.notation for t in bot_legal_turns(state, dice)] if state and dice else []
    board = ""
    if state is not None:
        board = board_svg(state.position, dice=dice or (), dice_side=me if dice else None,
                          element_id="play-board", viewer=me)  # fmt: skip
    rows: list[tuple[str, Figures]] = []
    analysis = bot_game_analysis(game)
    if analysis is not None:
        other = "black" if game.colour == "white" else "white"
        rows = [
            (_("you (%(colour)s)") % {"colour": side_name(game.colour)},
             side_figures(analysis, game.colour, _points(game, game.colour))),
            (_("the bot (%(colour)s)") % {"colour": side_name(other)},
             side_figures(analysis, other, _points(game, other))),
        ]  # fmt: skip
    return BotGamePage(
        game=game, level=bot_level_name(game.level), board=board, your_turn=your_turn,
        dice=dice, turns=turns, bot_played=_bot_since(game, state) if state else [],
        result=bot_result_text(game), rows=rows,
        evaluator=analysis.evaluator if analysis is not None else "",
        analysis=_analysis_page(game, analysis, rows),
    )  # fmt: skip
