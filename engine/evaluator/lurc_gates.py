"""The Lurč evaluator's gates (docs/analysis_lurc.md), measured by
``python -m engine.evaluator.lurc_gates legal N`` (N bot answers checked against
``legal_turns``) and ``... errors N`` (N games of the bot against a random mover,
analysed: each side's error rate)."""

from __future__ import annotations

import argparse
import random
import sys

from engine.analysis import analyse_game
from engine.evaluator.bot import bot_turn
from engine.evaluator.lurc_players import LurcNetPlayer, LurcPlayer, LurcRandom
from engine.evaluator.net import load_net, net_path
from engine.movegen import legal_positions
from engine.notation import WrittenAction, dice_text, write_movetext, write_tags
from engine.position import Position
from engine.replay import outcome_for
from engine.rules import Rules
from engine.variants import BLACK, CHECKERS, LURC


def checked_answers(answers: int, seed: int) -> tuple[int, int]:
    """Bot answers (level ``advanced``) on the positions of games of the bot against a
    random mover, each checked against every legal end of its roll: (answers, illegal)."""
    rng = random.Random(seed)
    random_mover = LurcRandom()
    done = illegal = 0
    while done < answers:
        pos = Position.start("lurc")
        while done < answers:
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            turn = bot_turn(pos, dice, "advanced", rng)
            asked = dice if turn.pas is None else [*dice, *turn.pas]
            legal = legal_positions(pos, asked)
            done += 1
            illegal += turn.position not in legal
            mover = pos.turn
            # the game goes on with the random mover's turn half the time
            if rng.random() < 0.5:
                pos = turn.position
            else:
                pos = random_mover.choose(pos, dice, rng).position
            if pos.off(mover) == CHECKERS or pos.off(1 - mover) == CHECKERS:
                break
    return done, illegal


def game_record(black: LurcPlayer, white: LurcPlayer, rng: random.Random) -> str:
    """A game of two Lurč players as record text (black starts, Z1)."""
    pos = Position.start("lurc")
    players = {BLACK: black, 1 - BLACK: white}
    actions = []
    while True:
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        mover = pos.turn
        turn = players[mover].choose(pos, dice, rng)
        roll = dice_text((dice[0], dice[1]), turn.pas)
        actions.append(WrittenAction(mover, "turn", f"{roll}: {turn.notation}".rstrip()))
        pos = turn.position
        if pos.off(mover) == CHECKERS:
            outcome = outcome_for(pos, mover, Rules())
            break
    tags = [("Variant", "lurc"), ("White", white.name), ("Black", black.name),
            ("Result", outcome.result)]  # fmt: skip
    return "\n".join(write_tags(tags)) + "\n\n" + write_movetext(actions, first_side=BLACK) + "\n"


def error_rates(games: int, seed: int) -> tuple[float, float]:
    """The mean error rate (mp per unforced move) of the random mover and of the bot
    over ``games`` games between them (colours alternating)."""
    assert LURC.evaluator is not None
    bot = LurcNetPlayer(load_net(net_path(LURC.evaluator)), name="bot")
    rnd = LurcRandom()
    rates: dict[str, list[float]] = {"random": [], "bot": []}
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        black, white = (bot, rnd) if g % 2 == 0 else (rnd, bot)
        analysis = analyse_game(game_record(black, white, rng))
        rates[black.name].append(analysis.side(BLACK).error_rate)
        rates[white.name].append(analysis.side(1 - BLACK).error_rate)
    return (sum(rates["random"]) / len(rates["random"]), sum(rates["bot"]) / len(rates["bot"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.evaluator.lurc_gates")
    parser.add_argument("gate", choices=("legal", "errors"))
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.gate == "legal":
        done, illegal = checked_answers(args.count, args.seed)
        print(f"{done} bot answers checked against legal_turns: {illegal} illegal")
        return 0 if illegal == 0 else 1
    rnd, bot = error_rates(args.count, args.seed)
    ratio = f"{rnd / bot:.1f}" if bot else "infinite (the bot is judged by its own net)"
    print(f"{args.count} games bot vs random mover: error rate random {rnd:.1f} mp, "
          f"bot {bot:.1f} mp, ratio {ratio}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
