"""Preferans as an OpenSpiel game: ``pyspiel.load_game("python_preferans")``.

Importing this module registers the game (it needs the ``open-spiel`` package
of the ``[rl]`` extra; without it the import raises ``ImportError`` naming the
extra).  One episode is one deal: 32 chance moves deal the cards (10 to each
active seat in turn from the dealer's left, then the talon), then the seats
act with the engine's actions (ids 0–104, cards first, then calls).  Returns
are each seat's net whists for the deal (:mod:`.rewards`), or normalised.

Parameters: ``players`` (3 or 4; 2 is гусарик, the dummy a third hand), ``rules`` (a preset name), ``rules_text``
(``FIELD=VALUE`` assignments separated by ``;``, e.g. ``"whist_mult=2;
ten_mode=whisted"``), ``dealer`` (seat), ``normalize`` (bool).

>>> import pyspiel
>>> game = pyspiel.load_game("python_preferans", {"players": 3, "rules": "leningrad"})
>>> game.num_players(), game.num_distinct_actions(), game.observation_tensor_shape()
(3, 105, [960])
"""

from __future__ import annotations

import json
from typing import Any

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - the [rl] extra is part of the test install
    raise ImportError(
        "preferans.env.openspiel needs OpenSpiel: pip install 'preferans[rl]' (package open-spiel)"
    ) from e
import numpy as np

from ..actions import BID_BASE, NUM_ACTIONS, NUM_BIDS, Action
from ..cards import Card, format_hand
from ..engine.deal import Deal
from ..rules import PRESETS, Rules
from ..seats import active_seats
from .config import EnvError
from .encoding import OBS_SIZE, encode_bits
from .rewards import deal_returns, reward_scale

__all__ = ["GAME_NAME", "PreferansGame", "PreferansState", "utility_bound"]

GAME_NAME = "python_preferans"
_MAX_PLAYER_MOVES = 200  # auction (≤ 2 calls per bid level and seat), talon, whisting, 30 cards

_DEFAULTS: dict[str, Any] = {"players": 3, "rules": "sochi", "rules_text": "", "dealer": 0, "normalize": False}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Preferans",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def utility_bound(rules: Rules) -> float:
    """A loose bound on any seat's net whists in one deal (for OpenSpiel's utility range).

    Ten tricks at the dearest per-trick price, written on both columns and as
    whists, at the largest coefficient (dark game, dark passes).
    """
    v = max(rules.game_values)
    price = max(
        v * max(rules.remiz_mult, rules.whist_mult, rules.cons_mult, float(rules.pen_mult)),
        rules.misere_trick, rules.misere_pool, rules.raspas_whists_per_trick, rules.raspas_price_at(1),
    )  # fmt: skip
    coeff = max(2, rules.bomb_limit)
    k = max(rules.k_pool, float(rules.mountain_factor(3)), rules.help_whists_per_point)  # n − 1 = 2 is dearest
    return float(coeff * 10 * price * k * 2)


def _rules_from(params: dict[str, Any]) -> Rules:
    name = str(params["rules"])
    if name not in PRESETS:
        raise EnvError(f"rules: unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
    rules = Rules.preset(name)
    for part in str(params["rules_text"]).split(";"):
        if part.strip():
            rules = rules.set_from_text(part)
    return rules


class PreferansGame(pyspiel.Game):
    """One deal of Preferans, dealt by chance."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        players = int(p["players"])
        if players not in (2, 3, 4):
            raise EnvError(f"players: Preferans is played by 2 (гусарик, with the dummy), 3 or 4, not {players}")
        self.rules = _rules_from(p)
        self.players = players
        self.dealer = int(p["dealer"]) % players
        self.scale = reward_scale(self.rules) if p["normalize"] else 1.0
        bound = utility_bound(self.rules) / self.scale
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=32,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=32 + _MAX_PLAYER_MOVES,
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> PreferansState:
        return PreferansState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> PreferansObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return PreferansObserver(perfect_recall)


class _Table:
    """The state's data.  Cloning copies the deal with :meth:`Deal.copy` (cheap) and shares the rules."""

    __slots__ = ("deal", "dealer", "dealt", "players", "rules", "scale")

    def __init__(self, rules: Rules, players: int, dealer: int, scale: float) -> None:
        self.rules, self.players, self.dealer, self.scale = rules, players, dealer, scale
        self.dealt: list[int] = []  # cards in dealing order
        self.deal: Deal | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> _Table:
        new = _Table(self.rules, self.players, self.dealer, self.scale)
        new.dealt = list(self.dealt)
        new.deal = self.deal.copy() if self.deal is not None else None
        return new


class PreferansState(pyspiel.State):
    """A deal being dealt (chance) or played (the engine's :class:`Deal`, attribute ``deal``)."""

    def __init__(self, game: PreferansGame) -> None:
        super().__init__(game)
        self._t = _Table(game.rules, game.players, game.dealer, game.scale)

    @property
    def deal(self) -> Deal | None:
        return self._t.deal

    @property
    def dealt(self) -> list[int]:
        return self._t.dealt

    @property
    def rules(self) -> Rules:
        return self._t.rules

    # -- who moves ----------------------------------------------------------------------------
    def current_player(self) -> int:
        deal = self.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if deal.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        to_act = deal.to_act
        assert to_act is not None
        return to_act

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None and player == self.deal.to_act
        return sorted(int(a) for a in self.deal.legal_actions() if a < NUM_ACTIONS)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in range(32) if c not in self.dealt]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        t = self._t
        if t.deal is None:
            t.dealt.append(action)
            if len(t.dealt) == 32:
                t.deal = self._make_deal()
            return
        t.deal.apply(action)

    def _make_deal(self) -> Deal:
        return Deal.from_deck(self.rules, self.dealt, players=self._t.players, dealer=self._t.dealer)

    def seat_of_dealt(self, index: int) -> int | None:
        """Which seat the ``index``-th dealt card goes to (``None``: the talon)."""
        return None if index >= 30 else active_seats(self._t.dealer, self._t.players)[index // 10]

    # -- outcome ------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._t.players
        assert self.deal is not None
        return [x / self._t.scale for x in deal_returns(self.deal.result, self.rules)]

    # -- text ---------------------------------------------------------------------------------
    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(action)}"
        text = str(Action(action))
        return f"bid {text}" if BID_BASE <= action < BID_BASE + NUM_BIDS else text

    def __str__(self) -> str:
        deal = self.deal
        if deal is None:
            return "dealing: " + " ".join(str(Card(c)) for c in self.dealt)
        lines = [f"phase {deal.phase.value}, dealer {deal.dealer}, to act {deal.to_act}"]
        lines += [f"seat {s}: {format_hand(h)}" for s, h in enumerate(deal.hands)]
        lines.append("talon: " + " ".join(str(c) for c in deal.talon))
        lines.append("moves: " + " ".join(f"{s}:{a}" for s, a in deal.moves))
        return "\n".join(lines)


class PreferansObserver:
    """OpenSpiel's observer protocol: the env's observation vector and a JSON string.

    The tensor is the 960-bit vector of docs/env.md (as float32); the string is
    the seat's :class:`~preferans.Observation` as JSON, which holds every call
    and played card, so with ``perfect_recall`` it is the information state.
    While the cards are being dealt a seat sees only its own cards so far.
    """

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PreferansState, player: int) -> None:
        bits = self._bits(state, player)
        raw = np.frombuffer(bits.to_bytes(OBS_SIZE // 8, "little"), dtype=np.uint8)
        self.tensor[:] = np.unpackbits(raw, bitorder="little")

    def _bits(self, state: PreferansState, player: int) -> int:
        deal = state.deal
        if deal is None:
            own = 0
            for i, c in enumerate(state.dealt):
                if state.seat_of_dealt(i) == player:
                    own |= 1 << c
            return own  # the hand block comes first
        return encode_bits(deal.observation(player), min_level=deal.min_level)

    def string_from(self, state: PreferansState, player: int) -> str:
        deal = state.deal
        if deal is None:
            own = [str(Card(c)) for i, c in enumerate(state.dealt) if state.seat_of_dealt(i) == player]
            return json.dumps({"seat": player, "dealing": own}, ensure_ascii=False)
        view = deal.observation(player).to_dict()
        if not self.perfect_recall:
            view.pop("moves")
            view.pop("move_phases")  # the history's phases are history too
            view.pop("completed_tricks")
        return json.dumps(view, ensure_ascii=False, sort_keys=True)


pyspiel.register_game(_GAME_TYPE, PreferansGame)
