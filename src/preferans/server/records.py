"""Finished games as records: every deal's cards, moves and result, the sheet and the settlement.

The record is plain JSON (``format: preferans-server-game/1``); each deal can
be rebuilt exactly with :func:`replay_deal` (``Deal.replay`` of its cards and
moves), so a downloaded game can be analysed with the solver or the bots.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..cards import Card
from ..deal import Deal
from ..rules import Rules

if TYPE_CHECKING:
    from .game import TableGame

__all__ = ["FORMAT", "deal_record", "game_record", "replay_deal"]

FORMAT = "preferans-server-game/1"


def deal_record(number: int, deal: Deal) -> dict[str, Any]:
    """One finished deal: the cards as dealt, every move, the result."""
    return {
        "number": number,
        "dealer": deal.dealer,
        "min_level": deal.min_level,
        "hands": [[str(c) for c in _cards(m)] for m in deal.initial_hands],
        "talon": [str(c) for c in deal.talon],
        "moves": [[s, str(a)] for s, a in deal.moves],
        "action_ids": [int(a) for _, a in deal.moves],
        "result": deal.result.to_dict() if deal.is_over else None,
    }


def game_record(game: TableGame) -> dict[str, Any]:
    """The whole game as JSON: rules, players, deals, sheet and settlement."""
    pulka = game.pulka
    out: dict[str, Any] = {
        "format": FORMAT,
        "table": game.id,
        "rules": game.rules.to_dict(),
        "players": game.players,
        "names": game.pulka_names(),
        "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level} for s in game.seats],
        "deals": [deal_record(n, d) for n, d in game.past],
    }
    if pulka is not None:
        out["sheet"] = pulka.sheet.to_dict()
        out["labels"] = [h.label for h in pulka.sheet.history]
        st = pulka.settlement()
        out["settlement"] = {name: str(v) for name, v in zip(st.names, st.rounded, strict=True)}
    return out


def replay_deal(record: dict[str, Any], index: int) -> Deal:
    """Rebuild deal ``index`` (0-based) of a game record exactly."""
    rules = Rules.from_dict(record["rules"])
    d = record["deals"][index]
    hands = [sum(1 << Card.parse(c) for c in h) for h in d["hands"]]
    talon = [Card.parse(c) for c in d["talon"]]
    return Deal.replay(
        rules, hands=hands, talon=talon, actions=[Action(a) for a in d["action_ids"]],
        dealer=d["dealer"], players=record["players"], min_level=d["min_level"],
    )  # fmt: skip


def _cards(mask: int) -> list[Card]:
    from ..cards import cards_of

    return list(cards_of(mask))
