"""The name an analysis stores for the net that judged it (tournaments/engine.py
``analyse_record``): the weights' self-play games and the commit of their last
training, so that a net trained further (``engine.evaluator.distill``, which keeps the
TD net's header and adds its own keys) is told apart from the TD net it started from."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.evaluator.net import Net, load_net, net_path
from tournaments.engine import analyse_record

RECORD = '[Variant "long"]\n\n1. 65: 24/13 43: 24/20/17\n'


def test_the_shipped_net_is_named_by_its_last_training() -> None:
    header = load_net(net_path("long")).header
    name = analyse_record(RECORD)["evaluator"]
    assert name == f"long ({header['games']} games, {header['distill_commit']})"
    assert header["distill_commit"] != header["commit"]


def test_a_net_never_trained_further_keeps_its_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    td = Net.load(net_path("long"))
    td.header = {k: v for k, v in td.header.items() if not k.startswith("distill_")}
    td.header.update(games=123, commit="abc1234")
    path = tmp_path / "long.net"
    td.save(path)
    # the header analyse_record names is read from the variant's weights file
    monkeypatch.setattr("engine.evaluator.net.net_path", lambda name: path)
    assert analyse_record(RECORD)["evaluator"] == "long (123 games, abc1234)"
