"""Analysis of a finished game: each deal's card play checked by the double-dummy solver.

For every deal that reached card play, :func:`analyse` gives the declarer's
(on all-pass: each player's) double-dummy tricks at the first lead, the tricks
actually taken, and every card that cost its side tricks against best play.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from ..errors import PreferansError
from .records import replay_deal

__all__ = ["analyse"]


def analyse(record: dict[str, Any]) -> dict[str, Any]:
    """Per-deal double-dummy analysis of a game record (see :mod:`.records`)."""
    from ..solver import Position, best_moves, solve

    out: list[dict[str, Any]] = []
    for i, d in enumerate(record["deals"]):
        entry: dict[str, Any] = {"number": d["number"], "result": d["result"]}
        try:
            deal = replay_deal(record, i)
            ids = d["action_ids"]
            while deal.moves:
                deal.undo()
            k = 0
            while k < len(ids) and deal.phase.value != "play":
                deal.apply(ids[k])
                k += 1
            if deal.phase.value != "play":
                entry["double_dummy"] = None
                out.append(entry)
                continue
            entry["double_dummy"] = solve(Position.from_deal(deal))
            entry["declarer"] = deal.declarer
            mistakes: list[dict[str, Any]] = []
            while k < len(ids) and deal.phase.value == "play":
                pos = Position.from_deal(deal)
                values = best_moves(pos)
                card = ids[k]
                seat = deal.to_play
                if len(values) > 1 and card in values:
                    played = values[card]
                    best = _best(values, deal, seat)
                    if played != best:
                        mistakes.append({"move": k, "seat": seat, "card": str(Card(card)), "best": best,
                                         "played": played})  # fmt: skip
                deal.apply(card)
                k += 1
            entry["mistakes"] = mistakes
        except PreferansError as e:
            entry["error"] = str(e)
        out.append(entry)
    return {"table": record.get("table"), "deals": out}


def _best(values: dict[Any, int], deal: Any, seat: int | None) -> int:
    """The value of the best card for the side of ``seat``."""
    kind = deal.kind.value if deal.kind is not None else ""
    declarer = deal.declarer
    vals = list(values.values())
    if kind == "all_pass":
        return min(vals)  # each player wants the fewest tricks
    on_declarer_side = seat == declarer
    if kind == "misere":
        return min(vals) if on_declarer_side else max(vals)
    return max(vals) if on_declarer_side else min(vals)
