"""Self-play match generator, run INSIDE GNU Backgammon's embedded Python.

Do not run this with a normal Python interpreter: it needs the ``gnubg`` module
that only exists inside ``gnubg -t -p``.  Use ``tools/gnubg/generate.sh``.

Two kinds of matches are produced, both without the doubling cube, both with
gnubg (0-ply) choosing every play and gnubg's Mersenne Twister rolling the dice:

* ``driven-NN.mat``: the players are set to "human" and this script asks gnubg
  for its best play (``gnubg.findbestmove`` with the match's own cube info,
  0-ply) and enters it with ``move``.  Dice come from gnubg's ``roll``.  This
  is gnubg playing itself, except that gnubg's automatic resignation (which
  only exists in ComputerTurn) never happens, so every game is played out to
  the last checker.
* ``auto-NN.mat``: plain gnubg-vs-gnubg automatic play.  Here gnubg resigns
  hopeless races, so most games end by resignation (the .mat export does not
  say so; tools/gnubg/mat2nrd.py detects it by counting borne-off checkers).

Environment variables (all optional):
  GNUBG_OUT_DIR       where the .mat files go (default: fixtures/gnubg/mat)
  GNUBG_DRIVEN        number of driven matches (default: 12)
  GNUBG_AUTO          number of automatic matches (default: 2)
  GNUBG_MATCH_LENGTH  match length in points (default: 25)

Seeds: driven match i (1-based) uses seed 1000 + i, automatic match i uses
2000 + i; the RNG is re-seeded before every match, so each file is
reproducible on its own.
"""

import os

import gnubg  # type: ignore[import-not-found]  # provided by gnubg itself

OUT_DIR = os.environ.get("GNUBG_OUT_DIR", "fixtures/gnubg/mat")
DRIVEN = int(os.environ.get("GNUBG_DRIVEN", "12"))
AUTO = int(os.environ.get("GNUBG_AUTO", "2"))
LENGTH = int(os.environ.get("GNUBG_MATCH_LENGTH", "25"))

COMMON = [
    "set display off",
    "set threads 1",
    "set rng mersenne",
    "set defaultnames gnubgA gnubgB",
    "set cube use off",
    "set automatic game on",
    "set automatic roll on",
    "set player 0 chequerplay evaluation plies 0",
    "set player 1 chequerplay evaluation plies 0",
    "set player 0 cubedecision evaluation plies 0",
    "set player 1 cubedecision evaluation plies 0",
]

# 0-ply, cubeful (cube is off anyway), deterministic, no noise.
EVAL_0PLY = {"cubeful": 1, "plies": 0, "deterministic": 1, "prune": 1, "noise": 0.0}

GAME_PLAYING = 1


def export(name: str, seed: int) -> None:
    # Fixed date so that the export is byte-for-byte reproducible.
    gnubg.command("set matchinfo date 2000-01-01")
    path = os.path.join(OUT_DIR, name)
    if os.path.exists(path):
        os.remove(path)  # gnubg would ask before overwriting
    gnubg.command(f"export match mat {path}")
    games = gnubg.match()["games"]
    resigned = sum(1 for g in games if g["info"].get("resigned"))
    print(f"GENERATED {path} seed={seed} games={len(games)} resigned={resigned}")


def driven_match(i: int) -> None:
    seed = 1000 + i
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command(f"set seed {seed}")
    gnubg.command(f"new match {LENGTH}")  # rolls the opening roll, then waits for us
    while True:
        info = gnubg.posinfo()
        if info["gamestate"] != GAME_PLAYING:
            break  # match over (automatic game starts the next game by itself)
        if info["dice"][0] == 0:
            gnubg.command("roll")  # a dance is recorded and passed by gnubg itself
            continue
        board = gnubg.board()
        best = gnubg.findbestmove(board, gnubg.cubeinfo(), EVAL_0PLY)
        gnubg.command("move " + gnubg.movetupletostring(best, board))
    export(f"driven-{i:02d}.mat", seed)


def auto_match(i: int) -> None:
    seed = 2000 + i
    gnubg.command("set player 0 gnubg")
    gnubg.command("set player 1 gnubg")
    gnubg.command(f"set seed {seed}")
    gnubg.command(f"new match {LENGTH}")  # plays the whole match
    export(f"auto-{i:02d}.mat", seed)


def main() -> None:
    os.makedirs(OUT_DIR, exist_ok=True)
    for c in COMMON:
        gnubg.command(c)
    for i in range(1, DRIVEN + 1):
        driven_match(i)
    for i in range(1, AUTO + 1):
        auto_match(i)


main()
