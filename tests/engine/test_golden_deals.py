"""Golden transcripts of seeded random deals, diffed on every run.

A change of behaviour in the engine shows up as a diff of
``tests/golden/random_deals.txt``.  After an intended change, regenerate with
``PREFERANS_UPDATE_GOLDEN=1 pytest tests/test_golden_deals.py`` and review the diff.
"""

import os
import random
from pathlib import Path

from preferans import Deal, Rules, format_hand

GOLDEN = Path(__file__).parents[1] / "golden" / "random_deals.txt"
CASES = [("sochi", 3, 1), ("sochi", 3, 2), ("sochi", 4, 3), ("leningrad", 3, 4), ("rostov", 3, 5),
         ("rostov", 4, 6), ("classic", 3, 7), ("kodeks", 3, 8), ("kodeks", 4, 9), ("sochi", 3, 10),
         ("sochi", 2, 11), ("leningrad", 2, 12), ("rostov", 2, 13), ("sochi", 2, 14)]  # 2: гусарик


def transcript(preset: str, players: int, seed: int) -> str:
    rng = random.Random(seed)
    rules = Rules.preset(preset)
    d = Deal.new(rules, players=players, dealer=seed % players, seed=seed)
    lines = [f"== {preset} players={players} dealer={d.dealer} seed={seed}"]
    for s in range(d.seats):  # with two players, seat 2 is the dummy
        lines.append(f"hand {s}: {format_hand(d.hands[s])}")
    lines.append(f"talon: {' '.join(str(c) for c in d.talon)}")
    # A policy that prefers playing on, so that games and all-passes both show up.
    while not d.is_over:
        legal = d.legal_actions()
        calls = [a for a in legal if str(a) in ("pass", "whist")]
        a = rng.choice(calls) if calls and rng.random() < 0.6 else rng.choice(legal)
        seat = d.to_act
        d.apply(a)
        lines.append(f"{seat} {a}")
    r = d.result
    lines.append(f"result: {r.kind.value} declarer={r.declarer} contract={r.contract} "
                 f"tricks={dict(r.tricks)} dealer_tricks={r.dealer_tricks}")
    return "\n".join(lines)


def test_golden_transcripts() -> None:
    text = "\n\n".join(transcript(*case) for case in CASES) + "\n"
    if os.environ.get("PREFERANS_UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
