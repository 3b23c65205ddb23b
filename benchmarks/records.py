"""Benchmark of game records: writing, reading, checking by replay, and analysis.

    python benchmarks/records.py [--pulkas 40] [--repeat 5] [--analysis 60]

Records are whole pulkas of random legal deals (every preset, 3 and 4
players).  For each of ``--repeat`` rounds the whole set is written, read
(form only), read and replayed through the engine and the sheet, and the same
for the JSON twin; the median round is reported as deals per second.  Then
``--analysis`` played 10-trick deals are analysed card by card with the
solver (a cold transposition table per deal is *not* forced: the thread's
engine is reused as it would be for a file) and the median and worst times
are printed.  Wall clock on one thread; on a shared machine figures are noisy,
hence medians.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from preferans import Deal, Rules
from preferans.record import GameRecord, dumps, loads, record_from_pulka
from preferans.rulings.analysis import analyze_deal
from preferans.scoring.pulka import Pulka


def random_pulka(preset: str, players: int, seed: int, deals: int = 12) -> GameRecord:
    rules = Rules.preset(preset)
    pulka = Pulka(rules, players)
    rng = random.Random(seed)
    played = []
    for _ in range(deals):
        if pulka.is_over:
            break
        d = Deal.new(rules, players=players, dealer=pulka.next_dealer, seed=rng.randrange(1 << 30),
                     min_level=pulka.min_level)
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        pulka.record(d.result)
        played.append(d)
    return record_from_pulka(pulka, played, headers={"event": "benchmark"})


def rate(fn: object, n_deals: int, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    med = statistics.median(times)
    return n_deals / med, med


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pulkas", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--analysis", type=int, default=60)
    args = ap.parse_args()
    records = []
    for i in range(args.pulkas):
        preset = Rules.PRESET_NAMES[i % 5]
        records.append(random_pulka(preset, 3 + (i // 5) % 2, i))
    n = sum(len(r.deals) for r in records)
    texts = [dumps(r) for r in records]
    jsons = [dumps(r, format="json") for r in records]
    print(f"{len(records)} pulkas, {n} deals, {sum(map(len, texts)) / n:.0f} bytes of text per deal")
    rows = [
        ("write text", lambda: [dumps(r) for r in records]),
        ("read text (form)", lambda: [loads(t, check=False) for t in texts]),
        ("read text + replay check", lambda: [loads(t) for t in texts]),
        ("write JSON", lambda: [dumps(r, format="json") for r in records]),
        ("read JSON (form)", lambda: [loads(t, check=False) for t in jsons]),
        ("read JSON + replay check", lambda: [loads(t) for t in jsons]),
    ]
    for name, fn in rows:
        per_s, med = rate(fn, n, args.repeat)
        print(f"{name:26} {per_s:9.0f} deals/s   (median of {args.repeat}: {med * 1e3:.1f} ms)")
    # analysis of played 10-trick deals
    rules = Rules.preset("sochi")
    rng = random.Random(5)
    times: list[float] = []
    seed = 0
    while len(times) < args.analysis:
        seed += 1
        d = Deal.new(rules, seed=seed)
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        if len(d.completed_tricks) != 10 or d.kind is None or d.kind.value == "all_pass":
            continue
        t = time.perf_counter()
        analyze_deal(d)
        times.append(time.perf_counter() - t)
    times.sort()
    print(
        f"analysis of a 10-trick deal (values of every card, losses, contract table): "
        f"median {statistics.median(times) * 1e3:.1f} ms, p90 {times[int(0.9 * len(times))] * 1e3:.1f} ms, "
        f"worst {times[-1] * 1e3:.1f} ms over {len(times)} deals"
    )


if __name__ == "__main__":
    main()
