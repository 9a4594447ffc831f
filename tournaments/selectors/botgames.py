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
    bot_may_double,
    bot_pas_choices,
    bot_state,
    movetext_for,
    read_records,
    replay,
    variant_named,
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
    # a Lurč houšek (Z8): the paš to choose from (1 to 6) and the one chosen (None: the
    # choice comes first, and the turns are listed once it is made)
    pas_choices: list[int]
    pas: int | None
    offered: bool  # the bot doubled: the user takes or drops
    may_double: bool  # the user may double or roll (the dice not shown yet)
    cube: str  # the cube's value and owner, empty without a cube
    # what the game's variant declares: a double rolled is a paš with an extra roll (Lurč,
    # Z7), a win may count more than one point (oin, mars)
    rolls_again: bool
    gammons: bool
    # the bot's turns since the user's last one ("6-4: 24/18 24/20"), in the user's numbering
    bot_played: list[str]
    result: str
    rows: list[tuple[str, Figures]]  # the analysis table (templates/_analysis_table.html)
    evaluator: str
    # the analysis as the game page shows it (_analysis_game.html): the table, the equity
    # chart and the marked turns
    analysis: GameAnalysisPage | None


def _points(game: BotGame, side: str) -> float:
    if not game.winner:  # a draw by the right of last roll (L10), in a game room
        return 0.0
    points = {"mars": 2.0, "koks": 3.0}.get(game.kind, 1.0) * _cube_value(game)
    return points if game.winner == side else -points


def _cube_value(game: BotGame) -> int:
    """The cube's value at the game's end (1 without a cube)."""
    try:
        cube = bot_state(game.record).position.cube
    except EngineError:
        return 1
    return cube.value if cube is not None else 1


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
    kind = result_text(
        winner=game.winner, kind=game.kind, ended=game.ended, with_winner=False,
        cube=_cube_value(game), gammons=variant_named(game.variant).gammons,
    )  # fmt: skip
    if not game.winner:  # a draw by the right of last roll (L10), in a game room
        return result_text(winner=None, kind="draw", ended=game.ended)
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


def bot_user_may_double(game: BotGame, state: BotState) -> bool:
    """Whether the user, to move, may double before rolling (S7; never before the
    game's first roll, which is the opening lot's, S2)."""
    me = 0 if game.colour == "white" else 1
    return state.position.turn == me and state.number > 0 and bot_may_double(state)


def _cube_text(state: BotState | None) -> str:
    cube = state.position.cube if state is not None else None
    if cube is None:
        return ""
    if cube.owner is None:
        return _("The cube is at %(value)s, in the middle.") % {"value": cube.value}
    return _("The cube is at %(value)s, owned by %(side)s.") % {
        "value": cube.value,
        "side": side_name(("white", "black")[cube.owner]),
    }


def bot_game_page(game: BotGame, pas: int | None = None) -> BotGamePage:
    """One game against the bot for its page; ``pas`` the paš the user chose after a
    houšek (Z8), whose plays are then listed."""
    try:
        state = bot_state(game.record)
    except EngineError:
        state = None
    playing = game.status == BotGameStatus.PLAYING and state is not None
    me = 0 if game.colour == "white" else 1
    your_turn = playing and state is not None and state.on_turn == me
    # the cube (short backgammon, S7): the bot's double to answer, or the user's choice
    # to double or roll before the dice are shown
    offered = your_turn and state is not None and state.offered
    may_double = (
        your_turn and state is not None and not game.rolled
        and bot_user_may_double(game, state)
    )  # fmt: skip
    rolling = your_turn and state is not None and not offered and not may_double
    dice = bot_dice(game.seed, state.number, _lot(state)) if rolling and state is not None else None
    choices = bot_pas_choices(state, dice) if state and dice else []
    pas = pas if pas in choices else None
    turns: list[str] = []
    if state and dice and (pas is not None or not choices):
        turns = [t.notation for t in bot_legal_turns(state, dice, pas)]
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
        dice=dice, turns=turns, pas_choices=choices, pas=pas, offered=offered,
        may_double=may_double, cube=_cube_text(state),
        rolls_again=variant_named(game.variant).rolls_again,
        gammons=variant_named(game.variant).gammons,
        bot_played=_bot_since(game, state) if state else [],
        result=bot_result_text(game), rows=rows,
        evaluator=analysis.evaluator if analysis is not None else "",
        analysis=_analysis_page(game, analysis, rows),
    )  # fmt: skip


def _lot(state: BotState) -> bool:
    """Whether the game's first roll is its opening lot (S2: never a double)."""
    return state.position.rules_variant.lot_is_first_roll
