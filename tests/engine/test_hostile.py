"""Hostile records (engine/limits.py): the reader is linear in its input, refuses what is over
its limits with :class:`RecordTooLargeError` naming the limit, reads numbers as ASCII
digits only, and lets nothing but an EngineError escape. The command line has no size
limit but reads a file as a stream, so a large file verifies with bounded memory."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EngineError, RecordSyntaxError, read_records, replay
from engine.errors import RecordTooLargeError
from engine.limits import DEFAULT_LIMITS, ReadLimits
from engine.replay import verify_text
from engine.selfplay import random_game
from engine.variants import Rules

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = sorted((ROOT / "fixtures" / "hostile").glob("*.nrd"))
LONG = '[Variant "long"]\n'


def read_or_error(text: str, limits: ReadLimits = DEFAULT_LIMITS) -> EngineError | None:
    """Read (and replay) ``text``; the EngineError it ends with, None on success. Any
    other exception fails the test."""
    try:
        for record in read_records(text, limits):
            replay(record)
    except EngineError as exc:
        return exc
    return None


@pytest.mark.parametrize("path", HOSTILE, ids=lambda p: p.name)
def test_each_hostile_fixture_ends_cleanly_in_bounded_time(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    started = time.perf_counter()
    error = read_or_error(text)
    assert time.perf_counter() - started < 2
    if error is not None:
        assert len(str(error)) < 500  # a message, not the input echoed back


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("superscript_game.nrd", "Game must be the game's number"),
        ("superscript_match_length.nrd", "MatchLength must be a number"),
        ("arabic_indic_match_length.nrd", "MatchLength must be a number"),
        ("huge_game_number.nrd", "Game must be the game's number"),
        ("huge_match_length.nrd", "MatchLength must be a number"),
        ("huge_score.nrd", "Score is the match score"),
        ("huge_point.nrd", "longer than any"),
        ("long_point.nrd", "does not exist"),
        ("huge_repeat.nrd", "longer than any"),
        ("long_repeat.nrd", "repeats a move"),
        ("arabic_indic_dice.nrd", "cannot read"),
        ("nul_in_tag.nrd", "NUL"),
        ("nul_in_movetext.nrd", "NUL"),
    ],
)
def test_the_findings_are_clean_syntax_errors(name: str, words: str) -> None:
    error = read_or_error((ROOT / "fixtures" / "hostile" / name).read_text(encoding="utf-8"))
    assert isinstance(error, RecordSyntaxError), error
    assert words in error.message


def test_nul_is_located() -> None:
    error = read_or_error(LONG + '[Event "ab\x00"]\n\n1. 64: 24/18/14\n')
    assert isinstance(error, RecordSyntaxError) and (error.line, error.col) == (2, 11)


@pytest.mark.parametrize(
    ("limits", "text", "limit"),
    [
        (
            ReadLimits(max_record_chars=1000),
            LONG + "\n" + "1. 64: 24/18/14 " * 100,
            "max_record_chars",
        ),
        (ReadLimits(max_tags=5), LONG + "".join(f'[T{i} "x"]\n' for i in range(5)), "max_tags"),
        (ReadLimits(max_line_chars=50), LONG + f'[Event "{"x" * 60}"]\n', "max_line_chars"),
        (ReadLimits(max_games=2), (LONG + "\n1. 64: 24/18/14\n\n") * 3, "max_games"),
    ],
)
def test_each_limit_raises_record_too_large_naming_it(limits, text, limit) -> None:
    with pytest.raises(RecordTooLargeError) as err:
        read_records(text, limits)
    value = getattr(limits, limit)
    assert err.value.limit == limit and err.value.value == value
    assert err.value.code == "record_too_large"
    assert err.value.params == {"limit": limit, "value": value}
    with pytest.raises(RecordTooLargeError):
        verify_text(text, limits)


def test_right_at_the_limits_a_record_reads() -> None:
    limits = ReadLimits(max_record_chars=10_000, max_tags=5, max_line_chars=60, max_games=3)
    text = (LONG + "".join(f'[T{i} "x"]\n' for i in range(4)) + "\n1. 64: 24/18/14\n\n") * 3
    assert len(read_records(text, limits)) == 3


def test_default_limits_refuse_the_findings_at_once() -> None:
    """100,000 tags (1.3 MB) and a 10 MB tag line: refused before any work."""
    tags = LONG + "".join(f'[T{i} "x"]\n' for i in range(100_000)) + "\n1. 64: 24/18/14\n"
    line = LONG + f'[Event "{"a" * 10_000_000}"]\n'
    for text in (tags, line):
        started = time.perf_counter()
        with pytest.raises(RecordTooLargeError):
            read_records(text)
        assert time.perf_counter() - started < 1
    with pytest.raises(RecordTooLargeError) as err:  # within the size, over the tags
        read_records(LONG + "".join(f'[T{i} "x"]\n' for i in range(16_000)))
    assert err.value.limit == "max_tags"


def _tags_seconds(count: int) -> float:
    """The CPU seconds of this process reading ``count`` tags: other processes on a
    shared machine do not count (the wall clock once took 1.2 s for 0.13 s of work)."""
    text = LONG + "".join(f'[T{i} "x"]\n' for i in range(count)) + "\n1. 64: 24/18/14\n"
    started = time.process_time()
    assert len(read_records(text, ReadLimits.unlimited())[0].tags) == count + 1
    return time.process_time() - started


def test_without_limits_the_reader_is_linear_in_the_tags() -> None:
    """16,000 tags took 8 s, 100,000 never ended: each tag was checked against every
    earlier one. Linear: five times the tags take about five times as long."""
    small = min(_tags_seconds(20_000) for _ in range(2))
    large = min(_tags_seconds(100_000) for _ in range(2))
    assert large < 10
    assert large < 12 * small + 0.5  # quadratic would be 25 times


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(
            st.text(max_size=40),
            st.sampled_from(
                [
                    '[Variant "long"]',
                    '[Variant "short"]',
                    '[Variant "lurc"]',
                    "\x00",
                    "\ud800",
                    "64: 24/18/14",
                    "66: 24/18(4)",
                    "21+55:",
                    "accepted",
                    "{",
                    "}",
                    ";",
                    "²",
                    "٣",
                    '[Game "' + "9" * 5000 + '"]',
                    '[MatchLength "²"]',
                    "9" * 5000,
                    "24/18(" + "9" * 5000 + ")",
                    "x" * 20_000,
                    "\n",
                    "W",
                    "B",
                    "resigns",
                ]
            ),
            st.integers(min_value=0, max_value=10**30).map(str),
        ),
        max_size=30,
    ),
    st.sampled_from([" ", "\n", ""]),
)
def test_property_hostile_records_raise_only_engine_errors(parts: list[str], sep: str) -> None:
    text = sep.join(parts)
    read_or_error(text)
    read_or_error(text, ReadLimits(max_record_chars=500, max_tags=3, max_line_chars=80,
                                   max_games=2))  # fmt: skip
    for result in verify_text(text, ReadLimits.unlimited()):
        assert isinstance(result, EngineError) or result.error is None or result.error.message


def test_cli_verifies_a_large_file_as_a_stream_with_bounded_memory(tmp_path: Path) -> None:
    """20 MB of games: verified by the command line (no size limit) with the memory of
    one game, not of the file."""
    import random

    game = random_game("long", random.Random(11), Rules())
    path = tmp_path / "large.nrd"
    copies = 20_000_000 // len(game) + 1
    with path.open("w", encoding="utf-8") as f:
        for _ in range(copies):
            f.write(game + "\n")
    # a small parent measures the verifier: RUSAGE_CHILDREN of this (large) test process
    # would count the fork of itself that precedes the exec
    measure = (
        "import resource, subprocess, sys; "
        "done = subprocess.run([sys.executable, '-m', 'engine', 'verify', sys.argv[1]]); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
        "sys.exit(done.returncode)"
    )
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", measure, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    seconds = time.perf_counter() - started
    peak_mb = int(done.stderr.split()[-1]) / 1024  # ru_maxrss is in KB on Linux
    assert done.returncode == 0, done.stderr[-500:]
    lines = done.stdout.splitlines()
    assert len(lines) == copies and lines[-1].startswith(f"game {copies}: ok")
    print(f"\nCLI verify of {path.stat().st_size / 1e6:.1f} MB ({copies} games): "
          f"{seconds:.1f} s, peak RSS {peak_mb:.0f} MB")  # fmt: skip
    assert peak_mb < 100
