"""``python -m engine verify|convert|legal|format|stats|bench`` (NOTATION.md section 3; .mat
match files of GNU Backgammon through engine.matfile)."""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import TextIO

from engine.bench import run_bench
from engine.errors import EngineError, RecordSyntaxError
from engine.limits import UNLIMITED
from engine.matfile import looks_like_mat, read_mat, verify_mat_text, write_mat
from engine.movegen import legal_turns
from engine.notation import read_records
from engine.position import Position
from engine.replay import Replay, format_text, iter_verified, replay
from engine.stats import cmd_stats
from engine.variants import Rules


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def _verified(path: str, f: TextIO) -> Iterator[Replay | RecordSyntaxError]:
    """The verdicts of one file's games. A record file is read as a stream, game by game
    and without size limits (a trusted file: memory stays that of one game); a .mat file
    (small) is read whole."""
    head = list(itertools.islice(f, 40))
    if path.lower().endswith(".mat") or looks_like_mat("".join(head)):
        yield from verify_mat_text("".join(head) + f.read())
        return
    # the lines as str.splitlines() cuts them, whatever the file's line ends
    lines = (part for raw in itertools.chain(head, f) for part in raw.splitlines())
    yield from iter_verified(lines, UNLIMITED)


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
    try:
        query = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not a JSON object: {exc.msg} at column {exc.colno}"}
    if not isinstance(query, dict):
        return {"error": 'a query is a JSON object with "position" and "dice"'}
    unknown = set(query) - {"position", "dice", "rules"}
    if unknown:
        return {"error": f"unknown key {sorted(unknown)[0]!r} in the query"}
    if "position" not in query or "dice" not in query:
        return {"error": 'a query needs "position" and "dice"'}
    try:
        position = Position.from_json(query["position"])
        rules = Rules.from_options(query.get("rules") or {})
        turns = legal_turns(position, query["dice"], rules)
    except EngineError as exc:
        return {"error": str(exc)}
    answers: list[dict[str, object]] = []
    for t in turns:
        answer: dict[str, object] = {"moves": t.notation, "position": t.position.to_json()}
        if t.pas is not None:
            answer["pas"] = list(t.pas)  # the paš chosen after a Lurč houšek (Z8)
        answers.append(answer)
    return {"turns": answers}


def cmd_legal(inp: TextIO, out: TextIO) -> int:
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


def main(argv: Sequence[str] | None = None) -> int:
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
    p = sub.add_parser("bench", help="print speed figures on fixed seeded inputs")
    p.add_argument("--quick", action="store_true", help="smaller inputs (a smoke run)")
    args = parser.parse_args(argv)
    if args.command == "verify":
        return cmd_verify(args.files, sys.stdout)
    if args.command == "convert":
        return cmd_convert(args.input, args.output, args.to, sys.stdout)
    if args.command == "legal":
        return cmd_legal(sys.stdin, sys.stdout)
    if args.command == "format":
        return cmd_format(args.file, sys.stdout)
    if args.command == "stats":
        return cmd_stats(args.files, sys.stdout)
    return run_bench(quick=args.quick, out=sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
