"""``hard``'s decisions on seeded deals are a golden transcript.

Speed work on the sampling bots (the solver memo of a duplicate deal, batched
solver calls, cached observations) must not change a single decision of
``hard`` for the same seed: over a few seeded duplicate deals of the arena
(``hard`` against ``medium``, every seating, Sochi and Leningrad) the moves are
compared with ``tests/golden/hard_decisions.txt``, written before that work.

After an intended change of ``hard``'s play, regenerate with
``PYTHONPATH=src python tests/bots/test_hard_golden.py`` and say why in the commit.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from preferans import Rules
from preferans.bots.arena import play_deal

GOLDEN = Path(__file__).parents[1] / "golden" / "hard_decisions.txt"
CASES = [("sochi", 0), ("sochi", 1), ("leningrad", 0), ("leningrad", 3)]


def transcript(preset: str, index: int) -> list[str]:
    """One line per seating: the seating, then every move as ``seat:action``."""
    res = play_deal(["hard", "medium"], index, rules=Rules.preset(preset), seed=18)
    lines = [f"== {preset} deal {index}"]
    for play in res["plays"]:
        moves = " ".join(f"{s}:{a}" for s, a, _ in play["moves"])
        lines.append(f"{''.join(map(str, play['seating']))} {moves}")
    return lines


def _golden() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    key = ""
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line.startswith("== "):
            key = line
            out[key] = [line]
        elif line:
            out[key].append(line)
    return out


@pytest.mark.parametrize(("preset", "index"), CASES)
def test_hard_plays_the_golden_moves(preset: str, index: int) -> None:
    got = transcript(preset, index)
    assert got == _golden()[got[0]]


if __name__ == "__main__":
    text = "\n".join(line for case in CASES for line in transcript(*case)) + "\n"
    GOLDEN.write_text(text, encoding="utf-8")
    sys.stdout.write(f"wrote {GOLDEN}\n")
