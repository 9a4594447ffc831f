"""Self-play matches WITH the doubling cube, run INSIDE GNU Backgammon's embedded Python.

Do not run this with a normal Python interpreter: it needs the ``gnubg`` module that
only exists inside ``gnubg -t -p``.  Use ``tools/gnubg/generate_cube.sh``.

Both players are "human" and this script plays for them, as ``generate.py`` does for
its driven matches (so gnubg's automatic resignation never happens):

* checker plays: ``gnubg.findbestmove`` at 0-ply with the match's cube info;
* cube actions: before every roll where the player on roll may double (not the
  Crawford game, cube centred or his), ``gnubg.cfevaluate`` at 0-ply gives gnubg's
  own cube recommendation ("No double, take", "Double, pass", "Too good to double,
  pass", "Redouble, take", ...).  A recommendation starting with "Double" or
  "Redouble" is a double; the opponent then takes when the recommendation ends with
  "take" (beavers are off) and drops otherwise.  (``gnubg.hint()`` has no cube
  hints in 1.07: "Hints for cube actions not yet implemented".)

Dice come from gnubg's Mersenne Twister, re-seeded before every match
(``set seed 3000+i`` for ``cube-NN.mat``).  Match lengths cycle through 5, 7, 9.

Environment variables (optional): GNUBG_OUT_DIR (default fixtures/gnubg/cube),
GNUBG_MATCHES (default 33).
"""

import os

import gnubg  # type: ignore[import-not-found]  # provided by gnubg itself

OUT_DIR = os.environ.get("GNUBG_OUT_DIR", "fixtures/gnubg/cube")
MATCHES = int(os.environ.get("GNUBG_MATCHES", "33"))
LENGTHS = (5, 7, 9)

COMMON = [
    "set display off",
    "set threads 1",
    "set rng mersenne",
    "set defaultnames gnubgA gnubgB",
    "set cube use on",
    "set jacoby off",
    "set beavers 0",
    "set automatic game on",
    "set automatic roll on",
    "set player 0 human",
    "set player 1 human",
]

EVAL_0PLY = {"cubeful": 1, "plies": 0, "deterministic": 1, "prune": 1, "noise": 0.0}
GAME_PLAYING = 1


def may_double(cube: dict) -> bool:  # type: ignore[type-arg]
    if cube["crawford"]:
        return False
    return cube["cubeowner"] in (-1, cube["move"])


def play_match(i: int) -> None:
    seed = 3000 + i
    length = LENGTHS[(i - 1) % len(LENGTHS)]
    gnubg.command(f"set seed {seed}")
    gnubg.command(f"new match {length}")
    considered = None  # (game, turn marker) where the cube was already considered
    doubles = takes = drops = 0
    while True:
        info = gnubg.posinfo()
        if info["gamestate"] != GAME_PLAYING:
            break
        board = gnubg.board()
        cube = gnubg.cubeinfo()
        if info["doubled"]:
            text = gnubg.cfevaluate(board, cube, EVAL_0PLY)[5]
            if text.rstrip().endswith("take"):
                takes += 1
                gnubg.command("take")
            else:
                drops += 1
                gnubg.command("drop")
            continue
        if info["dice"][0] == 0:
            marker = (gnubg.positionid(), cube["cube"], cube["cubeowner"], cube["move"])
            if marker != considered and may_double(cube):
                considered = marker
                text = gnubg.cfevaluate(board, cube, EVAL_0PLY)[5]
                if text.startswith(("Double", "Redouble")):
                    doubles += 1
                    gnubg.command("double")
                    continue
            gnubg.command("roll")  # a dance is recorded and passed by gnubg itself
            continue
        best = gnubg.findbestmove(board, cube, EVAL_0PLY)
        gnubg.command("move " + gnubg.movetupletostring(best, board))
    gnubg.command("set matchinfo date 2000-01-01")  # a byte-for-byte reproducible export
    path = os.path.join(OUT_DIR, f"cube-{i:02d}.mat")
    if os.path.exists(path):
        os.remove(path)  # gnubg would ask before overwriting
    gnubg.command(f"export match mat {path}")
    games = len(gnubg.match()["games"])
    print(
        f"GENERATED {path} seed={seed} length={length} games={games} "
        f"doubles={doubles} takes={takes} drops={drops}"
    )


def main() -> None:
    os.makedirs(OUT_DIR, exist_ok=True)
    for c in COMMON:
        gnubg.command(c)
    for i in range(1, MATCHES + 1):
        play_match(i)


main()
