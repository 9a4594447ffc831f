"""``python -m engine verify|convert|legal|format|stats|dice-check|bench`` (NOTATION.md
section 3; .mat match files of GNU Backgammon through engine.matfile)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence

from engine.errors import EngineError, RecordSyntaxError
from engine.limits import UNLIMITED
from engine.matheader import looks_like_mat
from engine.replay import Replay, format_text, iter_verified, replay

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any, TextIO

# Only what ``verify`` needs is imported here: scripts start ``verify`` once per file, so
# its start-up counts (docs/performance.md). The other commands import their modules (argparse,
# json, matfile, stats, bench) when they run; nothing imports engine.__main__, so those
# imports inside functions dodge no import cycle (tests/engine/test_architecture.py).


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


_CHUNK = 1 << 16


def _verified(path: str, f: TextIO) -> Iterator[Replay | RecordSyntaxError]:
    """The verdicts of one file's games. A record file is read as a stream, game by game
    and without size limits (a trusted file: memory stays that of one game and 64 KB of
    lines); a .mat file (small, told by its name or by its header in those first lines)
    is read whole."""
    first = "".join(f.readlines(_CHUNK))
    if path.lower().endswith(".mat") or looks_like_mat(first):
        from engine.matfile import verify_mat_text  # lazily: .mat files only

        yield from verify_mat_text(first + f.read())
        return
    yield from iter_verified(_lines(first, f), UNLIMITED)


def _lines(first: str, f: TextIO) -> Iterator[str]:
    """The lines of ``first`` and then of the rest of ``f``, as str.splitlines() cuts
    them, read 64 KB of whole lines at a time (a line at a time cost a tenth more of
    reading a record, docs/performance.md)."""
    text = first
    while text:
        yield from text.splitlines()
        text = "".join(f.readlines(_CHUNK))


def cmd_verify(paths: Sequence[str], out: TextIO) -> int:
    status = 0
    for path in paths:
        prefix = f"{path}: " if len(paths) > 1 else ""
        try:
            f = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            print(f"{prefix}cannot read {path}: {exc}", file=sys.stderr)
            return 2
        try:
            status = max(status, _print_verdicts(_verified(path, f), prefix, out))
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{prefix}cannot read {path}: {exc}", file=sys.stderr)
            return 2
        finally:
            if f is not sys.stdin:
                f.close()
    return status


def _print_verdicts(results: Iterable[Replay | RecordSyntaxError], prefix: str, out: TextIO) -> int:
    status = 0
    number = 0
    for number, r in enumerate(results, start=1):
        if isinstance(r, RecordSyntaxError):
            print(f"{prefix}game {number}: {r}", file=out)
            status = 1
        elif r.error is not None:
            print(f"{prefix}game {number}: {r.error.describe()}", file=out)
            status = 1
        else:
            # the outcome as the Result tag writes it (NOTATION 3): "white mars", "*"
            how = r.outcome.result if r.outcome else "*"
            if r.irregular:
                how += f" (irregular: {r.irregular_text()})"
            print(f"{prefix}game {number}: ok, {how}", file=out)
    if not number:
        print(f"{prefix}no games found", file=out)
        status = 1
    return status


def _format_of(path: str, text: str | None = None) -> str | None:
    if path.lower().endswith(".mat"):
        return "mat"
    if path.lower().endswith(".nrd"):
        return "nrd"
    if text is not None:
        return "mat" if looks_like_mat(text) else "nrd"
    return None


def convert_text(text: str, source: str, target: str, series: str = "") -> str:
    """A .nrd or .mat text in the other (or the same) format; raises EngineError."""
    from engine.matfile import read_mat, write_mat  # lazily: not verify's
    from engine.notation import read_records

    records = read_mat(text, series=series) if source == "mat" else read_records(text)
    if target == "mat":
        return write_mat(records) + "\n"
    games = []
    for number, record in enumerate(records, start=1):
        played = replay(record, check_result=False)
        if played.error is not None:
            played.error.game = number
            raise played.error
        games.append(played.canonical())
    return "\n".join(games)


def cmd_convert(src: str, dst: str, to: str | None, out: TextIO) -> int:
    target = to or _format_of(dst)
    if target is None:
        print(
            f"cannot tell the format of {dst}: name it .nrd or .mat, or give --to", file=sys.stderr
        )
        return 2
    try:
        text = _read(src)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {src}: {exc}", file=sys.stderr)
        return 2
    source = _format_of(src, text)
    assert source is not None
    stem = "" if src == "-" else src.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    try:
        result = convert_text(text, source, target, stem if source == "mat" else "")
    except EngineError as exc:
        where = f"game {exc.game}: " if exc.game else ""
        print(f"{src}: {where}{exc.describe()}", file=sys.stderr)
        return 1
    if dst == "-":
        out.write(result)
        return 0
    try:
        with open(dst, "w", encoding="utf-8") as f:
            f.write(result)
    except OSError as exc:
        print(f"cannot write {dst}: {exc}", file=sys.stderr)
        return 2
    return 0


def answer_legal_query(line: str) -> dict[str, object]:
    """Answer one ``legal`` query line (errors become ``{"error": ...}``)."""
    from engine.movegen import legal_turns  # lazily: not verify's
    from engine.queries import read_query, turn_json

    try:
        position, dice, rules = read_query(line)
        turns = legal_turns(position, dice, rules)
    except EngineError as exc:
        return {"error": str(exc)}
    return {"turns": [turn_json(t) for t in turns]}


def cmd_legal(inp: TextIO, out: TextIO) -> int:
    import json  # lazily: not verify's

    for line in inp:
        if not line.strip():
            continue
        print(json.dumps(answer_legal_query(line), separators=(",", ":")), file=out)
        out.flush()
    return 0


def cmd_format(path: str, out: TextIO) -> int:
    try:
        text = _read(path)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        out.write(format_text(text))
    except EngineError as exc:
        where = f"game {exc.game}: " if exc.game else ""
        print(f"{where}{exc.describe()}", file=sys.stderr)
        return 1
    return 0


def _evaluator_commands(sub: Any) -> None:
    """duel, bot and analyse (engine.evaluator.cli; their parsers load no numpy)."""
    from engine.evaluator.levels import DEFAULT_LEVEL, LEVELS  # lazily: not verify's

    p = sub.add_parser("duel", help="play two players in duplicate-dice pairs")
    p.add_argument("a", help="random, heuristic, net, net:FILE or a bot level")
    p.add_argument("b")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ply", type=int, choices=(0, 1), default=0, help="the nets' look-ahead")
    p.add_argument("--variant", default="long", choices=("long", "lurc"))
    p = sub.add_parser("luck-share", help="how much of self-play games' results the dice explain")
    p.add_argument("--variant", default="lurc", choices=("long", "lurc"))
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--pairs", help="a file each game's luck and result is appended to (a run resumes from it)"
    )
    p.add_argument("--part", default="0/1", help="K/M: play only games numbered K mod M")
    p = sub.add_parser("bot", help="answer JSON-lines queries with the bot's turn (long nardy)")
    p.add_argument("--level", default=DEFAULT_LEVEL, choices=tuple(LEVELS))
    p.add_argument("--seed", type=int, default=1, help="the noise of the weaker levels")
    p = sub.add_parser("analyse", help="print each game's errors and luck as JSON lines")
    p.add_argument("files", nargs="+")
    p.add_argument("--ply", type=int, choices=(0, 1), default=0)
    for name, text in (
        ("eval", "the chances and equity of each JSON-lines position (long nardy, Lurč)"),
        ("hint", "each JSON-lines position's plays for its dice, ranked"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("--ply", type=int, choices=(0, 1), default=0)
    p = sub.add_parser("bearoff-build", help="compute the long-nardy bear-off databases")
    p.add_argument("--out", help="the file (default: engine/evaluator/bearoff.npz)")
    p = sub.add_parser("bench-evaluator", help="print the evaluator's speed figures")
    p.add_argument("--quick", action="store_true", help="smaller inputs (a smoke run)")
    p = sub.add_parser("rollout", help="roll out each JSON-lines position or play (long nardy)")
    p.add_argument("--games", type=int, default=1296, help="games (a multiple of 36 is best)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--truncate", type=int, default=0, help="stop after N turns (0: never)")
    p.add_argument("--luck", action="store_true", help="subtract each roll's luck (gnubg's VR)")
    p = sub.add_parser("benchmark", help="score the net on the long-nardy rollout benchmark")
    p.add_argument(
        "--net",
        help="a weights file to score, or to play --roll's rollouts (default: the shipped net)",
    )
    p.add_argument("--file", help="the benchmark's rollouts (default: the shipped set)")
    p.add_argument("--roll", type=int, metavar="N", help="roll out N more positions instead")
    p = sub.add_parser("luck-check", help="how well the luck explains self-play results")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ply", type=int, choices=(0, 1), default=0, help="the analysis's depth")
    p.add_argument("--play-ply", type=int, choices=(0, 1), default=0,
                   help="the depth the games are played at (1: the strongest bot's)")  # fmt: skip
    p.add_argument("--net", help="a weights file for the contact net (default: the shipped one)")


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) > 1 and args[0] == "verify" and all(a == "-" or a[:1] != "-" for a in args):
        # verify FILE...: no options to read, so not argparse (whose help formatter
        # imports shutil, locale, lzma and bz2: some 5 ms of a 40 ms start-up)
        return cmd_verify(args[1:], sys.stdout)
    return _dispatch(args)


def _dispatch(args: list[str]) -> int:
    import argparse  # lazily: not verify's

    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Verify, format and list legal turns of long nardy and backgammon records.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("verify", help="verify every game of record files (.nrd or .mat)")
    p.add_argument("files", nargs="+")
    p = sub.add_parser("convert", help="convert a record between .nrd and .mat (gnubg)")
    p.add_argument("input", help="a .nrd or .mat file (- for standard input)")
    p.add_argument("output", help="a .nrd or .mat file (- for standard output, with --to)")
    p.add_argument("--to", choices=("nrd", "mat"), help="the output format")
    sub.add_parser("legal", help="answer JSON-lines legal-turn queries from standard input")
    p = sub.add_parser("format", help="print the canonical form of a record")
    p.add_argument("file")
    p = sub.add_parser("stats", help="print each game's dice and pip figures as JSON lines")
    p.add_argument("files", nargs="+")
    p = sub.add_parser(
        "dice-check", help="re-derive every roll of game-room records from their seed"
    )
    p.add_argument("files", nargs="+")
    p = sub.add_parser("train", help="train a game's evaluator by TD(lambda) self-play")
    p.add_argument("--out", required=True, help="the weights file (checkpointed as it goes)")
    p.add_argument("--games", type=int, required=True, help="games to reach in all")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--resume", action="store_true", help="go on from --out if it exists")
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--alpha", type=float, default=0.1)
    p.add_argument("--lambda", dest="lam", type=float, default=0.7)
    p.add_argument("--every", type=int, default=2000, help="games between checkpoints")
    p.add_argument("--variant", default="long", choices=("long", "lurc"),
                   help="the game (its encoder; kept in the weights on --resume)")  # fmt: skip
    p.add_argument("--report", type=int, default=100, help="games between log lines")
    _evaluator_commands(sub)
    p = sub.add_parser("bench", help="print speed figures on fixed seeded inputs")
    p.add_argument("--quick", action="store_true", help="smaller inputs (a smoke run)")
    args_ = parser.parse_args(args)
    if args_.command == "verify":
        return cmd_verify(args_.files, sys.stdout)
    if args_.command == "convert":
        return cmd_convert(args_.input, args_.output, args_.to, sys.stdout)
    if args_.command == "legal":
        return cmd_legal(sys.stdin, sys.stdout)
    if args_.command == "format":
        return cmd_format(args_.file, sys.stdout)
    if args_.command == "stats":
        from engine.stats import cmd_stats  # lazily: not verify's

        return cmd_stats(args_.files, sys.stdout)
    if args_.command == "dice-check":
        from engine.dicecheck import cmd_dice_check  # lazily: not verify's

        return cmd_dice_check(args_.files, sys.stdout)
    if args_.command in (
        "duel",
        "luck-share",
        "bot",
        "analyse",
        "eval",
        "hint",
        "bearoff-build",
        "rollout",
        "benchmark",
        "luck-check",
    ):
        from engine.evaluator.cli import run

        status = run(args_)
        assert status is not None
        return status
    if args_.command == "bench-evaluator":
        from engine.evaluator.bench import run_bench as run_evaluator_bench

        return run_evaluator_bench(sys.stdout, quick=args_.quick)
    if args_.command == "train":
        from engine.evaluator.lurc_train import play_lurc_game
        from engine.evaluator.train import play_training_game, train  # numpy: not verify's

        games = {"long": play_training_game, "lurc": play_lurc_game}
        return train(args_.out, args_.games, args_.seed, resume=args_.resume, hidden=args_.hidden,
                     alpha=args_.alpha, lam=args_.lam, every=args_.every,
                     variant=args_.variant, report=args_.report,
                     play_game=games[args_.variant])  # fmt: skip
    from engine.bench import run_bench  # lazily: not verify's

    return run_bench(quick=args_.quick, out=sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
