"""Records of short backgammon with the doubling cube (S7) for the cube's tests."""

from __future__ import annotations

from engine import Position
from engine.movegen import legal_turns


def doubling_war(doubles: int) -> str:
    """A short-backgammon record where, from turn 2, each side doubles before its roll
    and the other takes, ``doubles`` times (each side's first legal turn played)."""
    dice = [(3, 1), (2, 1), (5, 3), (4, 2), (6, 5), (5, 2), (6, 4), (4, 3), (6, 2), (5, 1)]
    position, lines, made = Position.start("short", cube=True), [], 0
    for number in range(1, 9):
        line = f"{number}."
        for side in ("", "B "):
            if number > 1 and made < doubles:
                taker = "W" if side else "B"
                line += f" {side}double {taker} take" if side else " double take"
                made += 1
            roll = dice[(2 * number + len(side)) % len(dice)]
            turn = legal_turns(position, list(roll))[0]
            line += f" {roll[0]}{roll[1]}: {turn.notation}"
            position = turn.position
        lines.append(line)
    return '[Variant "short"]\n[Cube "on"]\n[Result "*"]\n\n' + "\n".join(lines) + "\n"
