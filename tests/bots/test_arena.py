"""The arena: seatings, duplicate scoring, reproducibility, workers, Ray, cmd bots, CLI."""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from preferans import Deal, Rules
from preferans.bots.arena import ArenaError, bot_times, play_deal, run_arena, seatings
from preferans.cli import main
from preferans.engine.observation import Phase
from preferans.solver import Position, solve_many


@pytest.mark.parametrize(("bots", "seats"), [(1, 3), (2, 3), (3, 3), (2, 4), (3, 4), (4, 4)])
def test_seatings_use_every_bot_in_every_seat_equally(bots: int, seats: int) -> None:
    rows = seatings(bots, seats)
    assert len(set(rows)) == len(rows)
    for seat in range(seats):
        counts = Counter(r[seat] for r in rows)
        assert len(set(counts.values())) == 1 and len(counts) == bots


def test_duplicate_scores_are_zero_sum_and_reproducible() -> None:
    rules = Rules()
    a = run_arena(["medium", "easy"], deals=6, rules=rules, seed=3)
    b = run_arena(["medium", "easy"], deals=6, rules=rules, seed=3)
    assert a.bots["medium"].values == b.bots["medium"].values
    for x, y in zip(a.bots["medium"].values, a.bots["easy"].values, strict=True):
        assert x == pytest.approx(-y)
    c = run_arena(["medium", "easy"], deals=6, rules=rules, seed=4)
    assert c.bots["medium"].values != a.bots["medium"].values
    d = a.to_dict()
    assert d["deals_played"] == 36 and d["seatings_per_deal"] == 6
    row = d["bots"][0]
    assert row["games_made"] + row["games_set"] == row["games_declared"]
    lo, hi = row["ci95"]
    assert lo <= row["mean_net_whists_per_deal"] <= hi


def test_three_bots_and_four_players() -> None:
    rules = Rules.preset("leningrad")
    r = run_arena(["medium", "easy", "random"], deals=2, rules=rules, seed=1, players=4)
    assert r.plays == 2 * 36
    assert sum(b.mean for b in r.bots.values()) == pytest.approx(0, abs=1e-9)
    assert "double-dummy checks" in r.text()


@pytest.mark.parametrize("preset", ["sochi", "rostov"])
def test_two_players_gusarik(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """гусарик (rules.md §16): two bots, two seatings per deal (each bot in each seat); the
    dummy is nobody's seat, so every deal counts two seats and the scores are zero-sum."""
    r = run_arena(["hard", "random"], deals=6, rules=Rules.preset(preset), seed=2, players=2)
    assert r.plays == 12
    assert [b.counts["seats"] for b in r.bots.values()] == [12, 12]
    for x, y in zip(r.bots["hard"].values, r.bots["random"].values, strict=True):
        assert x == pytest.approx(-y)
    assert main(["arena", "--bots", "medium,easy", "--players", "2", "--deals", "2", "--format", "json",
                 "--no-progress"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["players"] == 2
    with pytest.raises(ArenaError, match="at most 2 bots"):
        run_arena(["hard", "medium", "easy"], deals=1, rules=Rules(), players=2)


def test_one_deal_counts_each_seat() -> None:
    res = play_deal(["hard", "medium"], 0, rules=Rules(), seed=1)
    seats = [st["seats"] for st in res["stats"]]
    assert seats == [9, 9]  # 6 seatings × 3 seats, half each


def test_workers_give_the_same_report() -> None:
    """Processes (with their own str hash seeds) reproduce the single-process report."""
    rules = Rules.preset("rostov")
    one = run_arena(["hard", "random"], deals=3, rules=rules, seed=8)
    two = run_arena(["hard", "random"], deals=3, rules=rules, seed=8, workers=2)
    assert one.bots["hard"].values == two.bots["hard"].values
    assert one.bots["random"].counts == two.bots["random"].counts


@pytest.mark.slow
def test_ray_cluster() -> None:
    """A local Ray started here (1 CPU); the arena joins it and gives the same report."""
    ray = pytest.importorskip("ray", reason="the [cluster] extra is not installed")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        rules = Rules()
        via_ray = run_arena(["medium", "easy"], deals=3, rules=rules, seed=5, ray="auto")
    finally:
        ray.shutdown()
    local = run_arena(["medium", "easy"], deals=3, rules=rules, seed=5)
    assert via_ray.bots["medium"].values == local.bots["medium"].values


@pytest.mark.parametrize(
    ("bots", "match"),
    [(["medium", "medium"], "name each bot once"), (["grandmaster"], "unknown bot 'grandmaster'"),
     (["easy", "medium", "hard", "random"], "at most 3 bots")],
)
def test_bad_setups(bots: list[str], match: str) -> None:
    with pytest.raises(ArenaError, match=match):
        run_arena(bots, deals=1, rules=Rules())


def test_cli_with_a_command_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bot = tmp_path / "first_legal.py"
    bot.write_text(textwrap.dedent(
        """
        import json, sys
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "hello":
                print("ok first-legal", flush=True)
            elif msg["type"] == "observation":
                print(msg["observation"]["legal_actions"][0], flush=True)
        """
    ))
    code = main(["arena", "--bots", f'medium,cmd:"{sys.executable} {bot}"', "--deals", "2",
                 "--format", "json", "--no-progress"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    names = [b["name"] for b in report["bots"]]
    assert names[0] == "medium" and names[1].startswith("cmd:")
    assert report["deals_played"] == 12


def test_cli_text_and_progress(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "medium,random", "--deals", "2", "--rules", "kodeks", "--seed", "2"]) == 0
    captured = capsys.readouterr()
    assert "net whists/deal" in captured.out and "95% CI" in captured.out
    assert "2/2 deals" in captured.err
    assert main(["arena", "--bots", "medium,nobody", "--deals", "1"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err


@pytest.mark.subprocess
def test_two_programs_against_each_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two external bots play each other; the report gives each one's time per decision."""
    fast = tmp_path / "fast.py"
    slow = tmp_path / "slow.py"
    body = textwrap.dedent(
        """
        import json, sys, time
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "hello":
                print("ok {name} preferans-bot/2", flush=True)
            elif msg["type"] == "observation":
                time.sleep({pause})
                print(msg["observation"]["legal_actions"][0], flush=True)
        """
    )
    fast.write_text(body.replace("{name}", "fast").replace("{pause}", "0"))
    slow.write_text(body.replace("{name}", "slow").replace("{pause}", "0.02"))
    specs = f'cmd:"{sys.executable} {fast}",cmd:"{sys.executable} {slow}"'
    assert main(["arena", "--bots", specs, "--deals", "1", "--format", "json", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    times = [b["seconds_per_decision"] for b in report["bots"]]
    assert all(b["decisions"] > 0 for b in report["bots"])
    assert times[1]["median"] >= 0.02 > times[0]["median"]  # the pause shows in the slow one's figures
    assert all(t["median"] <= t["p99"] <= t["max"] for t in times)
    assert main(["arena", "--bots", specs, "--deals", "1", "--no-progress"]) == 0
    assert "time per decision" in capsys.readouterr().out


def _arena_phases(name: str = "arena_phases") -> Any:
    """benchmarks/arena_phases.py (or another), imported from its file (benchmarks/ is no package)."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_per_deal_lines_rebuild_each_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--per-deal`` writes one JSON line a deal; its seed and dealer rebuild the deal,
    its moves replay to the recorded outcome, its values are the report's."""
    out = tmp_path / "run.jsonl"
    assert main(["arena", "--bots", "medium,easy", "--deals", "3", "--seed", "4", "--format", "json",
                 "--no-progress", "--per-deal", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["index"] for r in lines] == [0, 1, 2] and all(r["bots"] == ["medium", "easy"] for r in lines)
    means = [sum(r["values"][b] for r in lines) / 3 for b in range(2)]
    assert means == pytest.approx([row["mean_net_whists_per_deal"] for row in report["bots"]])
    rules = Rules()
    for rec in lines:
        assert len(rec["plays"]) == 6
        for play in rec["plays"]:
            deal = Deal.new(rules, players=3, dealer=rec["dealer"], seed=rec["seed"])
            for seat, action, phase in play["moves"]:
                assert str(deal.phase) == phase
                deal.apply(action, seat=seat)
            assert str(deal.result.kind) == play["kind"] and deal.result.declarer == play["declarer"]
            assert (play["dd_makeable"] is None) == (play["kind"] != "game" or bool(deal.result.conceded))
            assert len(play["seconds"]) == len(play["moves"]) and all(t >= 0 for t in play["seconds"])
    for b in range(2):  # each move's time is one of the report's decisions of the bot in that seat
        moves = [p["seating"][seat] for r in lines for p in r["plays"] for seat, _, _ in p["moves"]]
        assert moves.count(b) == report["bots"][b]["decisions"]


def test_arena_phases_splits_the_difference_by_the_first_differing_decision(tmp_path: Path) -> None:
    """Every swap of A for B in one seat lands in one category; the categories add up
    to A − B; a swap whose plays never differ scores zero."""
    phases = _arena_phases()
    lines: list[dict[str, Any]] = []
    run_arena(["medium", "easy"], deals=4, rules=Rules(), seed=2, per_deal=lines.append)
    rows = [row for rec in lines for row in phases.swaps(rec)]
    assert len(rows) == 4 * 6  # 3 seats × 2 pairs of seatings differing in that seat, a deal
    for cat, delta, _seat, at, (ma, mb) in rows:
        if cat == "identical play":
            assert ma == mb and delta == 0 and at == -1
        else:
            assert ma[:at] == mb[:at] and ma[at] != mb[at]
    known = {"bidding", "discard", "declare", "whist", "defence", "concession", "misere_invite",
             "noise (another seat differed first)", "identical play"}
    assert all(c in known or c.startswith("play: ") for c, *_ in rows)
    out = tmp_path / "run.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    per_swap = sum(d for _, d, *_ in rows) / len(rows)
    assert f"A − B per swap overall {per_swap:+.3f}" in _run_main(phases, [str(out)])


def test_arena_phases_times_split_each_bots_decisions_by_category(tmp_path: Path) -> None:
    """``--times``: every move of every seating is one timed decision of the bot in its seat,
    in one category; the printed counts add up to each bot's decisions, and the slowest
    decision listed first is the slowest in the file."""
    phases = _arena_phases()
    lines: list[dict[str, Any]] = []
    run_arena(["medium", "easy"], deals=3, rules=Rules.preset("leningrad"), seed=3, per_deal=lines.append)
    rows = [row for rec in lines for row in phases.decision_times(rec)]
    assert len(rows) == sum(len(p["moves"]) for rec in lines for p in rec["plays"])
    out = tmp_path / "run.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    printed = _run_main(phases, [str(out), "--times", "--top", "1"]).splitlines()
    table = printed[1:printed.index("")]
    for b, name in enumerate(["medium", "easy"]):
        counts = sum(int(line.split()[-4]) for line in table if line.split()[0] == name)
        assert counts == sum(1 for bot, *_ in rows if bot == b)
    slowest = max(took for _, _, took, _, _ in rows)
    assert printed[-1].split()[0] == f"{1000 * slowest:.1f}"
    untimed = tmp_path / "old.jsonl"  # a run written before the moves carried their times
    untimed.write_text("".join(json.dumps({**r, "plays": [{k: v for k, v in p.items() if k != "seconds"}
                                                         for p in r["plays"]]}) + "\n" for r in lines),
                       encoding="utf-8")
    assert "no move carries its thinking time" in _run_main(phases, [str(untimed), "--times"])


def test_arena_phases_roles_add_up_to_each_bots_score(tmp_path: Path) -> None:
    """``--roles``: every seat of every seating has one role, and a bot's shares of the
    roles add up to its score (its mean net whists a seat and deal)."""
    phases = _arena_phases()
    lines: list[dict[str, Any]] = []
    run_arena(["medium", "easy"], deals=4, rules=Rules.preset("leningrad"), seed=2, per_deal=lines.append)
    rows = [row for rec in lines for row in phases.seat_roles(rec)]
    assert len(rows) == 3 * sum(len(rec["plays"]) for rec in lines)
    assert {r for _, r, _ in rows} <= {"declarer", "whister", "passer", "misère declarer", "catcher", "all-pass"}
    out = tmp_path / "run.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    printed = _run_main(phases, [str(out), "--roles"]).splitlines()
    for b, column in ((0, -4), (1, -1)):  # each row ends: times, mean, a seat — of each bot
        mine = [v for bot, _, v in rows if bot == b]
        shares = sum(float(line.split()[column]) for line in printed[1:])
        assert shares == pytest.approx(sum(mine) / len(mine), abs=0.001 * len(printed))


def test_arena_phases_calls_split_one_category_by_the_differing_moves(tmp_path: Path) -> None:
    """``--calls bidding``: the auction's swaps split by A's and B's calls and by what came
    before (opening or over a bid; the seat's first call or a later one); the rows' swaps
    and shares add up to the category's line in the plain report."""
    phases = _arena_phases()
    moves = [[0, "pass", "bidding"], [1, "6♠", "bidding"], [2, "pass", "bidding"], [0, "7♠", "bidding"]]
    assert phases.call_context(moves, 0) == "opening, first call"
    assert phases.call_context(moves, 2) == "over a bid, first call"
    assert phases.call_context(moves, 3) == "over a bid, later call"
    whist = [[1, "6♠", "bidding"], [2, "pass", "bidding"], [0, "pass", "bidding"], [2, "whist", "whist"],
             [0, "pass", "whist"]]
    assert phases.call_context(whist, 3) == "first" and phases.call_context(whist, 4) == "whist"
    lines: list[dict[str, Any]] = []
    run_arena(["medium", "easy"], deals=6, rules=Rules.preset("leningrad"), seed=3, per_deal=lines.append)
    out = tmp_path / "run.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    rows = [row for rec in lines for row in phases.swaps(rec)]
    bidding = [d for cat, d, *_ in rows if cat == "bidding"]
    assert bidding, "the seed gives the auction some swaps"
    printed = _run_main(phases, [str(out), "--calls", "bidding"]).splitlines()
    assert printed[0] == f"bidding: {len(bidding)} of {len(rows)} swaps, by A's / B's move"
    table = printed[2:]
    assert sum(int(line[52:59]) for line in table) == len(bidding)
    shares = sum(float(line.split()[-1]) for line in table)
    assert shares == pytest.approx(sum(bidding) / len(rows), abs=0.001 * len(table))


def test_arena_phases_allpass_pairs_the_players_of_four(tmp_path: Path) -> None:
    """``--allpass`` at four players pairs every seat that played an all-pass with A and
    with B there; the dealer, who sits the all-pass out, is never one of them."""
    phases = _arena_phases()
    lines: list[dict[str, Any]] = []
    run_arena(["medium", "easy"], deals=4, rules=Rules.preset("leningrad"), seed=2, players=4,
              per_deal=lines.append)
    out = tmp_path / "run.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    pairs = 0
    for rec in lines:
        bots = {(s, play["seating"][s]) for play in rec["plays"] if play["kind"] == "all_pass"
                for s in range(4) if s != rec["dealer"]}
        pairs += sum((s, 0) in bots and (s, 1) in bots for s in range(4))
    assert pairs >= 2, "the seed gives some all-passes"
    assert _run_main(phases, [str(out), "--allpass"]).rstrip().endswith(f"over {pairs} seats")


def test_arena_phases_passes_price_a_first_pass_by_the_hand(tmp_path: Path) -> None:
    """``--passes``: A's first calls that passed while nobody had bid, split by the hand's
    estimate and by whether the deal went to an all-pass or to another's game; the rows
    count every such pass once, and the last line is the mean under another's game."""
    phases = _arena_phases()
    lines: list[dict[str, Any]] = []
    run_arena(["medium", "easy"], deals=8, rules=Rules.preset("leningrad"), seed=5, per_deal=lines.append)
    out = tmp_path / "run.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    passes: list[tuple[bool, float]] = []
    for rec in lines:
        for play in rec["plays"]:
            spoken: set[int] = set()
            bid = False
            for seat, move, phase in play["moves"]:
                if phase == "bidding" and seat not in spoken:
                    spoken.add(seat)
                    if move == "pass" and not bid and play["seating"][seat] == 0:
                        passes.append((play["kind"] == "all_pass", play["values"][seat]))
                    bid = bid or move != "pass"
    other = [v for ap, v in passes if not ap]
    assert passes and len(other) > 1, "the seed gives some of each"
    printed = _run_main(phases, [str(out), "--passes", "--rules", "leningrad"]).splitlines()
    table = printed[2:-1]
    assert sum(int(line.split()[1]) + int(line.split()[3]) for line in table) == len(passes)
    assert sum(int(line.split()[3]) for line in table) == len(other)
    assert printed[-1].startswith(f"another plays, every estimate: {sum(other) / len(other):+.2f}")


def _run_main(module: Any, argv: list[str]) -> str:
    import contextlib
    import io

    buf = io.StringIO()
    old = sys.argv
    sys.argv = ["arena_phases.py", *argv]
    try:
        with contextlib.redirect_stdout(buf):
            module.main()
    finally:
        sys.argv = old
    return buf.getvalue()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_time_limit_reports_the_deals_from_the_first(workers: int) -> None:
    """Stopped by the clock, the report covers deals 0 … n−1 only, each as in a full run;
    one process ends after the first deal, a pool after the deals under way."""
    rules = Rules()
    full = run_arena(["medium", "easy"], deals=8, rules=rules, seed=6)
    cut = run_arena(["medium", "easy"], deals=8, rules=rules, seed=6, workers=workers, time_limit=1e-9)
    assert (cut.deals == 1) if workers == 1 else (1 <= cut.deals < 8)
    assert cut.asked == 8 and cut.plays == 6 * cut.deals
    assert cut.bots["medium"].values == full.bots["medium"].values[: cut.deals]
    assert f"{cut.deals} of the 8 deals asked" in cut.text()
    with pytest.raises(ArenaError, match="time limit"):
        run_arena(["medium", "easy"], deals=1, rules=rules, time_limit=0)


def test_cli_minutes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "medium,easy", "--deals", "5", "--minutes", "1e-9", "--no-progress"]) == 0
    assert "stopped by the time limit: 1 of the 5 deals asked" in capsys.readouterr().out


def _report_core(report: Any) -> dict[str, Any]:
    """A report without what depends on the clock."""
    d: dict[str, Any] = report.to_dict()
    for key in ("seconds", "deals_untimed"):
        d.pop(key)
    for row in d["bots"]:
        row.pop("seconds_per_decision")
    return d


@pytest.mark.parametrize(("players", "preset"), [(3, "sochi"), (4, "leningrad"), (2, "sochi")])
def test_a_resumed_run_reports_what_one_run_would(tmp_path: Path, players: int, preset: str) -> None:
    """``--resume``: a run stopped after 3 deals and continued to 6 reports exactly what one run of
    6 does — also from lines written before they carried the counts (those are worked out again
    by replaying each seating's moves, the stored double-dummy check kept)."""
    rules = Rules.preset(preset)
    specs = ["medium", "easy"]
    whole = run_arena(specs, deals=6, rules=rules, seed=5, players=players)
    lines: list[dict[str, Any]] = []
    run_arena(specs, deals=3, rules=rules, seed=5, players=players, per_deal=lines.append)
    resumed = run_arena(specs, deals=6, rules=rules, seed=5, players=players, done=lines)
    assert _report_core(resumed) == _report_core(whole)
    assert resumed.untimed == 0 and len(resumed.bots["medium"].times) == len(whole.bots["medium"].times)
    old = [{**{k: v for k, v in line.items() if k != "stats"}, "plays": _without_seconds(line["plays"])}
           for line in lines]  # as written before the lines carried counts or times
    from_old = run_arena(specs, deals=6, rules=rules, seed=5, players=players, done=old)
    assert _report_core(from_old) == _report_core(whole) and from_old.untimed == 3
    # written before the plays carried each move's time: the line's own per-bot times
    timed = [{**line, "plays": _without_seconds(line["plays"]), "times": bot_times(line["plays"], 2)}
             for line in lines]
    from_timed = run_arena(specs, deals=6, rules=rules, seed=5, players=players, done=timed)
    assert _report_core(from_timed) == _report_core(whole) and from_timed.untimed == 0
    assert len(from_timed.bots["easy"].times) == len(whole.bots["easy"].times)


def _without_seconds(plays: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in play.items() if k != "seconds"} for play in plays]


def test_resume_refuses_the_lines_of_another_match() -> None:
    rules = Rules()
    lines: list[dict[str, Any]] = []
    run_arena(["medium", "easy"], deals=1, rules=rules, seed=5, per_deal=lines.append)
    with pytest.raises(ArenaError, match="bots"):
        run_arena(["medium", "random"], deals=2, rules=rules, seed=5, done=lines)
    with pytest.raises(ArenaError, match="another deal"):
        run_arena(["medium", "easy"], deals=2, rules=rules, seed=6, done=lines)
    old = [{k: v for k, v in line.items() if k != "stats"} for line in lines]
    with pytest.raises(ArenaError, match="other rules|another deal|illegal|values"):
        run_arena(["medium", "easy"], deals=2, rules=Rules.preset("leningrad"), seed=5, done=old)


def test_the_cli_resumes_a_cut_short_per_deal_file(tmp_path: Path, capsys: Any) -> None:
    """A killed run leaves its last line half written: ``--resume`` drops it and plays that deal again."""
    out = tmp_path / "deals.jsonl"
    args = ["arena", "--bots", "medium,easy", "--seed", "9", "--format", "json", "--no-progress",
            "--per-deal", str(out)]  # fmt: skip
    assert main([*args, "--deals", "3"]) == 0
    capsys.readouterr()
    text = out.read_text(encoding="utf-8")
    out.write_text(text[: len(text) - 40], encoding="utf-8")  # the third line cut short
    assert main([*args, "--deals", "4", "--resume"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert main([*args, "--deals", "4"]) == 0
    fresh = json.loads(capsys.readouterr().out)
    assert resumed["deals"] == 4 and resumed["bots"][0]["mean_net_whists_per_deal"] == pytest.approx(
        fresh["bots"][0]["mean_net_whists_per_deal"])
    assert [json.loads(x)["index"] for x in out.read_text(encoding="utf-8").splitlines()] == [0, 1, 2, 3]
    out.write_text('{"index": 0}\nnot json\n', encoding="utf-8")
    assert main([*args, "--deals", "4", "--resume"]) != 0
    assert "deals.jsonl, line 2: not a deal line" in capsys.readouterr().err


def _hard_against_medium(tmp_path: Path, rules: str, deals: int) -> tuple[list[dict[str, Any]], Path]:
    """A small duplicate run (``hard`` against ``medium``, seed 5): its per-deal lines and
    the file they were written to (named for the rules, as the benchmarks read them)."""
    lines: list[dict[str, Any]] = []
    run_arena(["hard", "medium"], deals=deals, rules=Rules.preset(rules), seed=5, per_deal=lines.append)
    out = tmp_path / f"run-{rules}.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return lines, out


def test_dd_bias_counts_every_game_played_against_its_double_dummy(tmp_path: Path) -> None:
    """benchmarks/dd_bias.py (which writes the expert's table) counts each trick game and
    misère played out once, and its ``--write`` module reads back the same counts."""
    dd_bias = _arena_phases("dd_bias")
    lines, out = _hard_against_medium(tmp_path, "sochi", 3)
    played = sum(1 for r in lines for p in r["plays"] if p["kind"] in ("game", "misere")
                 and sum(p["tricks"].values()) == 10)
    samples = dd_bias.games(out, Rules.preset("sochi"))
    assert len(samples) == played > 0
    assert all(0 <= dd <= 10 and 0 <= real <= 10 for _, _, dd, real in samples)
    table = tmp_path / "table.py"
    _run_main(dd_bias, [str(out), "--write", str(table)])
    written: dict[str, Any] = {}
    exec(table.read_text(encoding="utf-8"), written)
    assert written["COUNTS"] == dd_bias.table(samples)
    assert sum(n for rows in written["COUNTS"].values() for row in rows.values() for n in row.values()) == played


def test_dd_bias_counts_how_every_game_was_defended(tmp_path: Path) -> None:
    """``benchmarks/dd_bias.py --defence-write`` (the expert's defence mix) counts each trick
    game played out once, by its level and defence, as the deals replayed say (whisters from
    the deal, open or closed from its moves), and its module reads back those counts."""
    dd_bias = _arena_phases("dd_bias")
    lines, out = _hard_against_medium(tmp_path, "leningrad", 4)
    replayed = Counter((level, key) for key, level, _, _ in dd_bias.games(out, Rules.preset("leningrad"))
                       if key != "misere")
    assert sum(replayed.values()) > 0
    table = tmp_path / "mix.py"
    _run_main(dd_bias, [str(out), "--defence-write", str(table)])
    written: dict[str, Any] = {}
    exec(table.read_text(encoding="utf-8"), written)
    counted = Counter({(level, key): n for level, row in written["DEFENCE"]["leningrad"][3].items()
                       for key, n in row.items()})
    assert counted == replayed
    # the calls: each game whisted or passed by both defenders once, the pair as the record has it
    pairs = Counter((int(p["contract"].rstrip("♠♣♦♥NT")), tuple(sorted(p["defence"].values())))
                    for r in lines for p in r["plays"]
                    if p["kind"] in ("game", "not_played") and len(p["defence"]) == 2)
    calls: Counter[tuple[int, tuple[str, ...]]] = Counter()
    for level, firsts in written["CALLS"]["leningrad"][3].items():
        for first, seconds in firsts.items():
            for second, n in seconds.items():
                calls[(level, tuple(sorted((first, second))))] += n
    assert calls == pairs


def test_whist_layouts_sets_the_sampled_declarer_against_the_true_one(tmp_path: Path) -> None:
    """benchmarks/whist_layouts.py: one row per deal that reached the whisting (its first
    seating), the true double-dummy tricks those of the deal replayed into play and solved
    open, every figure a number of tricks; the printed means are those rows', and
    ``--write`` counts one true margin a game and one drawn margin a layout."""
    whist_layouts = _arena_phases("whist_layouts")
    lines, out = _hard_against_medium(tmp_path, "leningrad", 4)
    rows = whist_layouts.first_whists(out, Rules.preset("leningrad"), 10)
    whisted = [r for r in lines if r["plays"][0]["kind"] == "game"
               and any(phase == "whist" for _, _, phase in r["plays"][0]["moves"])]
    assert len(rows) == len(whisted) > 0
    for (level, true, drawn, weighed, hard), rec in zip(rows, whisted, strict=True):
        play = rec["plays"][0]
        deal = Deal.new(Rules.preset("leningrad"), dealer=rec["dealer"], seed=rec["seed"])
        for seat, action, _ in play["moves"]:
            if deal.phase is Phase.PLAY:
                break
            deal.apply(action, seat=seat)
        assert deal.contract is not None and level == deal.contract.level
        assert true == solve_many([Position.from_deal(deal)])[0]
        assert drawn and all(0 <= t <= 10 for t in drawn) and 0 <= weighed <= 10 and 0 <= hard <= 10
    table = tmp_path / "margins.py"
    printed = _run_main(whist_layouts, [str(out), "--rules", "leningrad", "--write", str(table)])
    assert f"true {statistics.fmean(r[1] for r in rows):.2f}" in printed
    written: dict[str, Any] = {}
    exec(table.read_text(encoding="utf-8"), written)
    counts = written["MARGINS"]["leningrad"]
    assert sum(counts["true"].values()) == len(rows)
    assert sum(counts["drawn"].values()) == sum(len(r[2]) for r in rows)
    assert counts == whist_layouts.margin_counts(rows)


def test_call_odds_counts_every_first_call_once(tmp_path: Path) -> None:
    """benchmarks/call_odds.py (the counts behind the inference's ``bid_odds``): every
    player's first call of every seating is counted once, by its hand's estimate."""
    call_odds = _arena_phases("call_odds")
    lines: list[dict[str, Any]] = []
    run_arena(["hard", "medium"], deals=3, rules=Rules.preset("leningrad"), seed=5, per_deal=lines.append)
    out = tmp_path / "run-leningrad.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    counts = call_odds.first_calls(out, Rules.preset("leningrad"))
    plays = sum(len(r["plays"]) for r in lines)
    assert sum(n for n, _, _ in counts.values()) == 3 * plays
    bids = sum(1 for r in lines for p in r["plays"] for _, a, ph in p["moves"] if ph == "bidding" and a[0].isdigit())
    assert 0 < sum(g for _, g, _ in counts.values()) <= bids
    printed = _run_main(call_odds, [str(out), "--least", "1"])
    assert printed.splitlines()[0].split() == ["first", "call", "estimate", "calls", "game", "bid", "misère", "model"]


def test_arena_paired_compares_two_runs_deal_by_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmarks/arena_paired.py: the same deals played twice; the difference of the first
    bot's net whists deal by deal, and a refusal when the files hold other deals."""
    paired = _arena_phases("arena_paired")
    files = []
    for name, bots, seed in (("new", "medium,easy", 4), ("base", "random,easy", 4), ("other", "random,easy", 5)):
        out = tmp_path / f"{name}.jsonl"
        assert main(["arena", "--bots", bots, "--deals", "3", "--seed", str(seed), "--format", "json",
                     "--no-progress", "--per-deal", str(out)]) == 0
        files.append(json.loads(capsys.readouterr().out)["bots"][0]["mean_net_whists_per_deal"])
    monkeypatch.setattr("sys.argv", ["arena_paired", str(tmp_path / "new.jsonl"), str(tmp_path / "base.jsonl")])
    paired.main()
    line = capsys.readouterr().out
    assert line.startswith("3 deals: ") and f"new {files[0]:+.2f}, base {files[1]:+.2f}" in line
    assert f"new − base {files[0] - files[1]:+.2f}" in line
    monkeypatch.setattr("sys.argv", ["arena_paired", str(tmp_path / "new.jsonl"), str(tmp_path / "other.jsonl")])
    with pytest.raises(SystemExit, match="deal 0 is not the same deal"):
        paired.main()


def test_arena_phases_allpass_prices_the_trick_and_pairs_the_seats(tmp_path: Path) -> None:
    """``--allpass``: the all-pass's share of the seatings, the whists a trick cost its seat
    (the least-squares slope) and A's tricks minus B's, seat by seat in the same deal."""
    phases = _arena_phases()
    plays = [
        {"seating": [0, 1, 1], "kind": "all_pass", "tricks": {"0": 2, "1": 4, "2": 4}, "values": [20, -10, -10]},
        {"seating": [1, 0, 0], "kind": "all_pass", "tricks": {"0": 3, "1": 3, "2": 4}, "values": [10, 10, -20]},
        {"seating": [0, 0, 1], "kind": "game", "tricks": {}, "values": [0, 0, 0]},
    ]
    out = tmp_path / "run.jsonl"
    out.write_text(json.dumps({"bots": ["A", "B"], "dealer": 2, "plays": plays}) + "\n", encoding="utf-8")
    printed = _run_main(phases, [str(out), "--allpass"])
    slope = statistics.linear_regression([2, 4, 4, 3, 3, 4], [20, -10, -10, 10, 10, -20]).slope
    assert f"2 of 3 seatings (66.7 %); a trick costs its seat {-slope:.2f} whists" in printed
    # seat 0: A took 2, B 3; seat 1: A 3, B 4; seat 2: A 4, B 4
    assert "A − B tricks, same seat of the same deal: -0.667" in printed and "over 3 seats" in printed


def test_allpass_play_pairs_the_same_seat_of_the_same_all_pass() -> None:
    """benchmarks/allpass_play.py: every deal is passed out and played in every seating;
    the same bot on both sides differs by nothing, and a setting made on A alone is A's."""
    allpass = _arena_phases("allpass_play")
    times: list[float] = []
    assert allpass.play_allpass(["medium", "medium"], 5, 0, Rules.preset("leningrad"), {}, times) == (0.0, 0.0)
    assert times  # A's card decisions are timed
    tricks, whists = allpass.play_allpass(["medium", "medium"], 5, 0, Rules.preset("leningrad"),
                                          {"careless": 1.0}, [])
    assert tricks > 0 > whists  # A playing at random takes more of this all-pass's tricks
    # the seeing player who searches the all-pass's end each for himself takes fewer here
    tricks, whists = allpass.play_allpass(["oracle-selfish", "oracle"], 5, 0, Rules.preset("leningrad"), {}, [])
    assert tricks < 0 < whists
