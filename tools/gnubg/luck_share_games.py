"""Cubeless self-play games of gnubg against itself, each analysed by gnubg for luck;
run INSIDE GNU Backgammon's embedded Python by ``tools/gnubg/luck_share.py`` (which
reads the lines this prints), never by a normal Python interpreter.

One money session, cube off and Jacoby off (a gammon scores 2, a backgammon 3). Both
players are "human" driven by this script, which enters gnubg's own 0-ply best play
(``gnubg.findbestmove``, no noise), as tools/gnubg/generate.py's driven matches do: so
gnubg never resigns and every game is played to the last checker. The dice are
gnubg's Mersenne Twister, re-seeded before game g with ``seed * 1000000 + g``. Then
``analyse match`` at 0-ply (luck analysis 0-ply too), and for each game one line:

    LUCK <game> <first mover's luck> <opponent's luck> <first mover's points>

luck in equity (gnubg's "luck" of the game's statistics: for each roll, the equity
after it minus the average over all 36 rolls, summed over the side's rolls), points
+1/+2/+3 won or -1/-2/-3 lost. The first mover is the side that won the opening roll
and played it (the player of the game's first move).

Environment: GNUBG_LUCK_GAMES (number of games), GNUBG_LUCK_SEED (the seed)."""

import os

import gnubg  # type: ignore[import-not-found]  # provided by gnubg itself

GAMES = int(os.environ.get("GNUBG_LUCK_GAMES", "10"))
SEED = int(os.environ.get("GNUBG_LUCK_SEED", "1"))

SETTINGS = [
    "set display off",
    "set threads 1",
    "set rng mersenne",
    "set cube use off",
    "set jacoby off",
    "set automatic game off",
    "set automatic roll on",
    "set player 0 human",
    "set player 1 human",
    "set analysis chequerplay evaluation plies 0",
    "set analysis cubedecision evaluation plies 0",
    "set analysis luckanalysis plies 0",
]

# 0-ply, deterministic, no noise: gnubg's "expert" level
EVAL_0PLY = {"cubeful": 1, "plies": 0, "deterministic": 1, "prune": 1, "noise": 0.0}
GAME_PLAYING = 1


def play_game() -> None:
    while gnubg.posinfo()["gamestate"] == GAME_PLAYING:
        if gnubg.posinfo()["dice"][0] == 0:
            gnubg.command("roll")  # a dance is recorded and passed by gnubg itself
            continue
        board = gnubg.board()
        best = gnubg.findbestmove(board, gnubg.cubeinfo(), EVAL_0PLY)
        gnubg.command("move " + gnubg.movetupletostring(best, board))


def main() -> None:
    for command in SETTINGS:
        gnubg.command(command)
    for g in range(GAMES):
        gnubg.command(f"set seed {SEED * 1000000 + g}")
        gnubg.command("new session" if g == 0 else "new game")  # rolls the opening roll
        play_game()
    gnubg.command("analyse match")
    games = gnubg.match(analysis=1, boards=0, statistics=1)["games"]
    for g, game in enumerate(games):
        info, stats = game["info"], game["stats"]
        assert not info["resigned"] and info["points-won"] > 0
        first = next(r["player"] for r in game["game"] if r["action"] == "move")
        second = "O" if first == "X" else "X"
        points = info["points-won"] if info["winner"] == first else -info["points-won"]
        first_luck, second_luck = stats[first]["dice"]["luck"], stats[second]["dice"]["luck"]
        print(f"LUCK {g} {first_luck:.6f} {second_luck:.6f} {points}", flush=True)


main()
