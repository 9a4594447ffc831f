"""GNU Backgammon .mat match files (engine/matfile.py) and the cube corpus made by
tools/gnubg/generate_cube.sh: gnubg self-play matches to 5, 7 and 9 points with the
doubling cube and the Crawford rule (RULES S1-S7)."""

from __future__ import annotations

import functools
import io
from pathlib import Path

import pytest

from engine import GameRecord, RecordSyntaxError, replay
from engine.__main__ import main
from engine.matfile import parse_mat, read_mat, verify_mat_text, write_mat
from engine.notation import read_movetext_line

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "gnubg" / "cube"
FILES = sorted(CORPUS.glob("*.mat"))


@functools.cache
def corpus() -> dict[str, list[GameRecord]]:
    return {f.name: read_mat(f.read_text(encoding="utf-8"), series=f.stem) for f in FILES}


def test_every_corpus_game_verifies_and_the_scores_add_up():
    games = 0
    for f in FILES:
        results = verify_mat_text(f.read_text(encoding="utf-8"))
        for number, r in enumerate(results, start=1):
            assert not isinstance(r, RecordSyntaxError), (f.name, r)
            assert r.ok, (f.name, number, r.error)
            games += 1
    assert games >= 100


def test_each_score_line_is_the_sum_of_the_points_before_it():
    """S6, S7: the points of a game are its kind times the cube (a drop: the cube before
    the double); the next game's Score tag adds them up, in its own White/Black order."""
    for name, records in corpus().items():
        match = parse_mat((CORPUS / name).read_text(encoding="utf-8"))
        totals = {n: 0 for n in match.games[0].names}
        for record in records:
            white, black = record.tag("White"), record.tag("Black")
            assert record.tag("Score") == f"{totals[white]}-{totals[black]}", (name, record)
            outcome = replay(record).outcome
            assert outcome is not None
            totals[white if outcome.winner == 0 else black] += outcome.points
        assert max(totals.values()) >= match.length  # every match is played out


def test_the_corpus_has_doubles_takes_drops_and_crawford_games():
    records = [r for rs in corpus().values() for r in rs]
    kinds = [a.kind for r in records for a in r.actions]
    assert kinds.count("double") >= 50 and kinds.count("take") >= 30
    outcomes = [replay(r).outcome for r in records]
    assert sum(1 for o in outcomes if o is not None and o.dropped) >= 20
    assert sum(1 for o in outcomes if o is not None and o.cube >= 4) >= 5
    crawford = [r for r in records if r.tag("Crawford") == "on"]
    assert len(crawford) >= 10
    assert all("double" not in [a.kind for a in r.actions] for r in crawford)
    post = [r for r in records if r.tag("Crawford") == "off" and _after_crawford(r)]
    assert any("double" in [a.kind for a in r.actions] for r in post)  # post-Crawford


def _after_crawford(record: GameRecord) -> bool:
    return any(int(s) == int(record.tag("MatchLength")) - 1 for s in record.tag("Score").split("-"))


def test_tags_of_a_game():
    record = corpus()["cube-15.mat"][5]
    assert dict(record.tags) == {
        "Variant": "short",
        "Series": "cube-15",
        "Game": "6",
        "White": "gnubgB",  # moved first in this game
        "Black": "gnubgA",
        "Cube": "on",
        "MatchLength": "9",
        "Score": "8-2",  # the score line says gnubgA : 2   gnubgB : 8
        "Crawford": "on",
        "Result": "black oin",
    }


def test_our_mat_writer_reads_back_to_the_same_games():
    for name in ("cube-01.mat", "cube-15.mat"):
        records = corpus()[name]
        again = read_mat(write_mat(records), series=name[:-4])
        assert [r.tags for r in again] == [r.tags for r in records]
        for a, b in zip(records, again, strict=True):
            assert replay(a).canonical() == replay(b).canonical()


MAT = """ 5 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                 61: 13/7 8/7
  2)  Doubles => 2                Drops
      Wins 1 point
"""


def test_a_drop_wins_the_cube_before_the_double():
    (record,) = read_mat(MAT)
    assert record.tag("Result") == "white oin"
    outcome = replay(record).outcome
    assert outcome is not None and outcome.dropped and outcome.points == 1


def test_a_game_without_the_last_checker_off_is_resigned():
    text = MAT.replace("  2)  Doubles => 2                Drops\n", "")
    (record,) = read_mat(text)
    assert record.actions[-1].kind == "resigns" and record.actions[-1].side == 1
    result = replay(record)
    assert result.ok and result.outcome is not None and result.outcome.resigned


@pytest.mark.parametrize(
    ("text", "line", "col", "words"),
    [
        ("Game 1\n", 1, 1, "'N point match'"),
        (" 5 point match\n Game 1\n Ann 0 Bob 0\n", 3, 2, "players and scores"),
        (MAT.replace("31: 8/5", "31: 8-5"), 5, 10, "cannot read '8-5'"),
        (MAT.replace("31:", "71:"), 5, 6, "cannot read '71:"),
        (MAT.replace("Drops", "Dropz"), 6, 35, "cannot read 'Dropz'"),
        (MAT.replace("61: 13/7 8/7", "61: 13/7 8/77"), 5, 43, "points are 0 (off) to 25"),
        (MAT + "  3) 21: 6/4 6/5\n", 8, 6, "already won"),
        (MAT.replace("      Wins 1 point\n", "") + "\n Game 2\n", 8, 2, "no 'Wins"),
        (
            MAT.replace("2)  Doubles => 2                Drops", "2)" + " " * 30 + "Doubles => 2"),
            6,
            35,
            "twice",
        ),
    ],
)
def test_a_malformed_mat_names_line_and_column(text, line, col, words):
    with pytest.raises(RecordSyntaxError) as info:
        read_mat(text)
    assert (info.value.line, info.value.col) == (line, col), info.value
    assert words in info.value.message


def test_a_wrong_score_line_or_points_is_reported():
    text = MAT + "\n Game 2\n Ann : 0                        Bob : 1\n  1) 31: 8/5 6/5\n"
    (_, second) = verify_mat_text(text)
    assert not isinstance(second, RecordSyntaxError) and second.error is not None
    assert second.error.rule == "S7" and second.error.line == 10
    (first,) = verify_mat_text(MAT.replace("Wins 1 point", "Wins 2 points"))
    assert not isinstance(first, RecordSyntaxError) and first.error is not None
    assert first.error.rule == "S6"


def _run(*argv: str) -> tuple[int, str]:
    import contextlib

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(argv))
    return code, out.getvalue()


def test_cli_verify_and_convert(tmp_path):
    source = str(CORPUS / "cube-01.mat")
    code, out = _run("verify", source)
    assert code == 0 and out.startswith("game 1: ok, ")
    nrd, mat = tmp_path / "m.nrd", tmp_path / "m.mat"
    assert _run("convert", source, str(nrd))[0] == 0
    assert _run("convert", str(nrd), str(mat))[0] == 0
    assert _run("verify", str(nrd), str(mat))[0] == 0
    sniffed = tmp_path / "m.txt"
    sniffed.write_text(mat.read_text(encoding="utf-8"), encoding="utf-8")
    assert _run("verify", str(sniffed))[0] == 0
    code, out = _run("convert", source, "-", "--to", "nrd")
    assert code == 0 and out.startswith('[Variant "short"]')
    assert _run("convert", source, "out.txt")[0] == 2  # no format for the output
    broken = tmp_path / "bad.mat"
    broken.write_text(MAT.replace("Drops", "Dropz"), encoding="utf-8")
    code, out = _run("verify", str(broken))
    assert code == 1 and "line 6, col 35" in out
    code, out = _run("convert", str(broken), "-", "--to", "nrd")
    assert code == 1 and "line 6, col 35" in out and "Traceback" not in out


# mutated copies ---------------------------------------------------------


def _mutations() -> list[tuple[str, str, int, str, str | None]]:
    """(id, file, game index, action index, new turn text, expected rule), deterministic:
    from the corpus games, the first few turns of each kind that can be broken so."""
    found: dict[str, list[tuple[str, str, int, int, str, str | None]]] = {}
    for name, records in corpus().items():
        for g, record in enumerate(records):
            for i, p in enumerate(replay(record).played):
                if p.action.kind != "turn" or p.action.dice is None or not p.steps:
                    continue
                for kind, text, rule in _breaks(p):
                    found.setdefault(kind, []).append((kind, name, g, i, text, rule))
    out = []
    for kind in sorted(found):
        cases = found[kind]
        out += [cases[k * len(cases) // 8] for k in range(min(8, len(cases)))]
    return [(f"{k}-{n}-{g}-{i}", n, g, i, t, r) for k, n, g, i, t, r in out]  # type: ignore[misc]


def _breaks(p):  # one candidate of each kind for this turn, if the position allows it
    pos = p.before.to_json()
    side = pos["turn"]
    me = {int(k) if k != "bar" else 25: v for k, v in pos[side].items()}
    them = pos["white" if side == "black" else "black"]
    opp = {25 - int(k): v for k, v in them.items() if k != "bar"}
    hi, lo = p.action.dice
    dice = f"{hi}{lo}:"
    moves = p.canonical.split(":", 1)[1].split()
    closed = [q for q in me if q < 25 and q - hi > 0 and opp.get(q - hi, 0) >= 2]
    if closed and not me.get(25):
        yield "closed-point", f"{dice} {closed[0]}/{closed[0] - hi}", "S3"
    open_ = [q for q in me if q < 25 and q - hi > 0 and opp.get(q - hi, 0) < 2]
    if me.get(25) and open_:
        yield "bar-first", f"{dice} {open_[0]}/{open_[0] - hi}", "S4"
    empty = [q for q in range(24, hi, -1) if not me.get(q) and opp.get(q - hi, 0) < 2]
    if empty and not me.get(25):
        yield "empty-point", f"{dice} {empty[0]}/{empty[0] - hi}", None
    if hi != lo and len(p.steps) == 2 and len(moves) == 2:
        yield "one-die-short", f"{dice} {moves[0]}", "S5"
        step = p.steps[-1]
        if step.to > 1 and all(s.to != 0 for s in p.steps):
            yield "extra-move", f"{p.canonical} {step.to}/{step.to - 1}", "L3"
    if me.get(25):
        entry = [d for d in range(1, 7) if d not in (hi, lo) and opp.get(25 - d, 0) < 2]
        if entry and len(moves) == 1 and moves[0].startswith("bar/"):
            yield "wrong-entry", f"{dice} bar/{25 - entry[0]}", "S4"


MUTATIONS = _mutations()


def test_there_are_a_few_dozen_mutations():
    assert len(MUTATIONS) >= 30


@pytest.mark.parametrize(
    ("file", "game", "index", "text", "rule"),
    [m[1:] for m in MUTATIONS],
    ids=[m[0] for m in MUTATIONS],
)
def test_a_mutated_corpus_game_is_rejected_with_its_rule(file, game, index, text, rule):
    record = corpus()[file][game]
    actions = list(record.actions)
    (new,), _ = read_movetext_line(text)
    actions[index] = new._replace(line=actions[index].line, col=actions[index].col)
    result = replay(GameRecord(record.tags, tuple(actions), record.line))
    assert result.error is not None, text
    assert result.error.rule == rule, result.error
    assert result.error.line == actions[index].line


def test_a_double_in_the_crawford_game_is_refused():
    for record in (r for rs in corpus().values() for r in rs if r.tag("Crawford") == "on"):
        actions = list(record.actions)
        first = actions[2]
        actions[2:2] = [first._replace(kind="double", dice=None, moves=())]
        result = replay(GameRecord(record.tags, tuple(actions), record.line))
        assert result.error is not None and result.error.rule == "S7"
        assert "Crawford" in result.error.message
