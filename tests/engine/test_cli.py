"""``python -m engine verify|legal|format`` (NOTATION.md section 3), run as a subprocess
from the project root on temporary files."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Position, Replay, format_text, play, verify_text
from engine.__main__ import main
from engine.limits import UNLIMITED

ROOT = Path(__file__).resolve().parents[2]
LONG = '[Variant "long"]\n\n'


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def two_games(tmp_path: Path, autoplay) -> tuple[Path, int]:
    """Game 1 ends in a white mars; game 2 breaks L6 on its line ``bad_line``."""
    game = autoplay("long", (6, 5), (5, 3))
    first = f'[Variant "long"]\n[Result "white mars"]\n\n{game.movetext}\n\n'
    second = LONG + "1. 65: 24/18/13 65: 24/18/13\n2. 65: 24/18\n"
    path = tmp_path / "club.nrd"
    path.write_text(first + second, encoding="utf-8")
    bad_line = len(first.splitlines()) + 4
    return path, bad_line


def test_verify_prints_one_line_per_game(two_games: tuple[Path, int]) -> None:
    path, bad_line = two_games
    done = run("verify", str(path))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == "game 1: ok, white mars"
    assert lines[1].startswith(f"game 2: line {bad_line}, col 4: turn 2 (white 6-5: 24/18): ")
    assert lines[1].endswith("(L6)")
    assert len(lines) == 2
    assert "Traceback" not in done.stderr


def test_verify_exits_0_when_every_game_verifies(tmp_path: Path) -> None:
    path = tmp_path / "ok.nrd"
    path.write_text(
        LONG + "1. 65: 24/18/13\n\n" + '[Variant "long"]\n[Result "black mars"]\n\nW resigns\n',
        encoding="utf-8",
    )
    done = run("verify", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("game 1: ok")
    assert lines[1].startswith("game 2: ok, black mars")


def test_verify_numbers_games_from_1_in_each_file(tmp_path: Path) -> None:
    one = tmp_path / "one.nrd"
    two = tmp_path / "two.nrd"
    one.write_text(LONG + "1. 65: 24/18/13\n", encoding="utf-8")
    two.write_text(LONG + "1. 75: 24/17\n", encoding="utf-8")
    done = run("verify", str(one), str(two))
    assert done.returncode == 1
    out = done.stdout
    assert "game 1: ok" in out
    assert "game 1: line 3, col 4: " in out
    assert "game 2" not in out


def test_verify_a_syntax_error_gives_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.nrd"
    path.write_text('[Variant "long"]\n[Mars "maybe"]\n\n1. 65: 24/18/13\n', encoding="utf-8")
    done = run("verify", str(path))
    assert done.returncode == 1
    assert done.stdout.startswith("game 1: line 2, col 1: ")
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("verify",),
        ("verify", "/nonexistent/club.nrd"),
        ("format",),
        ("format", "/nonexistent/club.nrd"),
        ("nonsense",),
        (),
    ],
)
def test_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr


def test_legal_answers_each_line_and_goes_on_after_an_error() -> None:
    start = {"variant": "long", "turn": "white", "white": {"24": 15}, "black": {"24": 15}}
    queries = [
        json.dumps({"position": start, "dice": [6, 6]}),
        "not json",
        json.dumps({"position": start, "dice": [7, 1]}),
        json.dumps({"position": start, "dice": [6, 6], "rules": {"mars": "maybe"}}),
        json.dumps({"position": {"variant": "chess"}, "dice": [6, 6]}),
        json.dumps({"dice": [6, 6]}),
        "",
        json.dumps(
            {
                "position": {
                    "variant": "long",
                    "turn": "black",
                    "white": {"24": 14, "4": 1},
                    "black": {"24": 15},
                },
                "dice": [4, 4],
                "rules": {"block_check": "every-step", "mars": "off"},
            }
        ),
    ]
    done = run("legal", stdin="\n".join(queries) + "\n")
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 7  # the blank line is skipped
    assert answers[0] == {
        "turns": [
            {
                "moves": "24/18(2)",
                "position": {
                    "variant": "long",
                    "turn": "black",
                    "white": {"24": 13, "18": 2},
                    "black": {"24": 15},
                },
            }
        ]
    }
    for answer in answers[1:6]:
        assert set(answer) == {"error"}
        assert isinstance(answer["error"], str) and answer["error"]
        assert "Traceback" not in answer["error"]
    assert "7" in answers[2]["error"]
    # L4.3: black's 4-4 after white's 5-5 is a single 24/20; the rules are read
    assert [t["moves"] for t in answers[6]["turns"]] == ["24/20"]


def test_legal_lists_every_distinct_end_once() -> None:
    query = {
        "position": {"variant": "long", "white": {"24": 15}, "black": {"24": 15}},
        "dice": [3, 3],
    }
    done = run("legal", stdin=json.dumps(query) + "\n")
    answer = json.loads(done.stdout)
    ends = [json.dumps(t["position"], sort_keys=True) for t in answer["turns"]]
    assert len(ends) == len(set(ends)) == 2
    start = Position.start("long")
    for turn in answer["turns"]:
        # each way of writing it replays to its position
        assert play(start, "33: " + turn["moves"]).position.to_json() == turn["position"]


def test_format_prints_the_canonical_text(tmp_path: Path) -> None:
    text = '[White "Jana"]\n[Variant "long"]\n\n1. 6-4: 24/14 46: 24/20 20/14\n'
    path = tmp_path / "messy.nrd"
    path.write_text(text, encoding="utf-8")
    done = run("format", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == format_text(text)
    assert "1. 64: 24/18/14 64: 24/20/14" in done.stdout
    again = tmp_path / "again.nrd"
    again.write_text(done.stdout, encoding="utf-8")
    assert run("format", str(again)).stdout == done.stdout


def test_format_of_an_illegal_record_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.nrd"
    path.write_text(LONG + "1. 65: 24/18\n", encoding="utf-8")
    done = run("format", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert "line 3, col 4" in done.stderr
    assert "Traceback" not in done.stderr


def test_verify_prints_the_outcome_as_the_result_tag_writes_it(tmp_path: Path) -> None:
    """NOTATION 3: ``game 1: ok, white mars`` - a resignation or an unfinished game is
    written the same way (``ok, white oin``, ``ok, *``)."""
    path = tmp_path / "two.nrd"
    path.write_text(
        '[Variant "long"]\n[Result "white mars"]\n\n1. 65: 24/18/13 B resigns\n\n'
        '[Variant "long"]\n\n1. 64: 24/18/14\n',
        encoding="utf-8",
    )
    done = run("verify", str(path))
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["game 1: ok, white mars", "game 2: ok, *"]


def test_verify_reads_a_large_file_in_chunks_as_splitlines_cuts_it(tmp_path: Path) -> None:
    """``verify`` reads a record file 64 KB of lines at a time: over several chunks and
    whatever the line ends (\\r\\n, \\r, a form feed), its verdicts are verify_text's."""
    games = [
        '[Variant "long"]\r\n\r\n1. 65: 24/18 18/13\x0c 64: 24/18 18/14\r2. 31: 24/21 21/20\r',
        '[Variant "long"]\n\n1. 65: 24/18/13 65: 24/18/13\n2. 65: 24/18\n',
        '[Variant "long"]\n[Result "black mars"]\n\nW resigns\n',
    ]
    text = "\n".join(games[i % 3] for i in range(3000))
    assert len(text) > 2 * 2**16  # three chunks
    path = tmp_path / "big.nrd"
    path.write_bytes(text.encode("utf-8"))
    expected = [
        f"game {n}: ok, {r.outcome.result if r.outcome else '*'}"
        if isinstance(r, Replay) and r.ok
        else f"game {n}: {r.error.describe() if isinstance(r, Replay) and r.error else r}"
        for n, r in enumerate(verify_text(path.read_text(encoding="utf-8"), UNLIMITED), start=1)
    ]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["verify", str(path)])
    assert status == 1
    assert out.getvalue().splitlines() == expected
    assert len(expected) == 3000 and expected[1].startswith("game 2: line ")
