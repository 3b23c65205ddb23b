"""HeuristicBot: a rule-of-thumb player — hand evaluation, no search.

* **Bidding** — the tricks of each strain are estimated
  (:mod:`.evaluate`) plus the talon's average gain; the bot bids up the
  ladder while the bid is at most its best contract, holds («здесь») when it
  may, and bids misère as a first call when the hand has no hole a discard
  cannot fix.
* **Discard and contract** — the pair whose removal keeps the best estimate
  (misère: the pair that leaves fewest holes); the contract with the best
  expected score over a spread of tricks around the estimate.
* **Whisting** — the defender's likely tricks against the declarer's, scored
  under the table's convention (quota and responsibility, greedy or
  gentleman, rules.md §5.2–§5.3) for whist, pass and half-whist, with the
  partner's call when it is known.
* **Card play** — draw trumps and cash masters as declarer; second hand low,
  third hand high, win as cheaply as possible, never overtake a partner's
  sure winner; on misère and all-pass duck under the trick when possible and
  throw the highest card when void (Kodeks 3.6, 3.7).

``careless`` is the chance of a random legal card in play (the ``easy`` level).
``standing`` — judge every outcome by what it changes in the pulka's final
settlement (the observation's :class:`~preferans.engine.standing.Standing`, when the
deal has one) instead of as a deal alone; off at this level, on for ``hard`` and
``expert`` (:mod:`.value`).
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import (
    ACCEPT,
    CLOSED,
    CONCEDE_ALL,
    CONCEDE_THREE,
    HALF_WHIST,
    HERE,
    MISERE,
    OPEN,
    PASS,
    PLAY,
    QUOTA,
    REFUSE,
    WHIST,
    Action,
    Contract,
)
from ..cards import SUIT_MASKS, cards_of
from ..engine.observation import Observation
from ..engine.standing import Standing
from ..rules import Rules
from ..scoring import QUOTA as QUOTAS
from ..seats import defenders_of
from .base import Bot
from .evaluate import (
    TALON_GAIN,
    choose_discard,
    defence_tricks,
    misere_holes,
    misere_keep,
    strain_tricks,
)
from .knowledge import active_seats
from .playout import all_pass_card
from .tricks import TrickView
from .value import expected, game_utility, settled_utility

__all__ = ["HeuristicBot"]


def _last_bid(obs: Observation) -> Contract | None:
    for _, a in reversed(obs.moves):
        if a is not None and a.is_bid:
            return a.contract
    return None


def _defenders(obs: Observation) -> tuple[int, int]:
    assert obs.declarer is not None
    return defenders_of(active_seats(obs), obs.declarer)


def _whist_calls(obs: Observation) -> dict[int, str]:
    """Whisting calls made so far: seat → "whist" / "pass" / "half"."""
    out: dict[int, str] = {}
    started = False
    for s, a in obs.moves:
        if a is None:
            continue
        if a.is_bid and s == obs.declarer:
            started = True  # the declaration (the last bid by the declarer)
            out.clear()
        elif started and a in (WHIST, PASS, HALF_WHIST):
            out[s] = {WHIST: "whist", PASS: "pass", HALF_WHIST: "half"}[a]
    if "whist" in out.values():
        # A half-whist answered by a whist: the half-whister becomes a passer (rules.md §5.4).
        out = {s: "pass" if c == "half" else c for s, c in out.items()}
    return out


class HeuristicBot(Bot):
    """Plays by hand evaluation and simple card-play rules (see the module doc)."""

    name = "heuristic"

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        careless: float = 0.0,
        boldness: float = 0.0,
        standing: bool = False,
    ) -> None:
        super().__init__(rules, seed=seed)
        self.careless = careless
        self.boldness = boldness
        self.use_standing = standing
        self._rng = random.Random(seed)
        self._discard_plan: tuple[int, int] = (0, 0)  # (hand of 12, discard mask)

    # ------------------------------------------------------------------ dispatch
    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:
            return Action(int(legal[0]))
        phase = observation.phase
        handler = getattr(self, "_" + phase, None)
        choice: Action | None = handler(observation) if handler is not None else None
        if choice is None or choice not in legal:
            return PASS if PASS in legal else Action(int(legal[0]))
        return Action(int(choice))

    def _standing(self, obs: Observation) -> Standing | None:
        """The pulka's standing this bot scores outcomes by; ``None``: each deal alone."""
        return obs.standing if self.use_standing else None

    # ------------------------------------------------------------------ auction
    def estimates(self, hand: int, *, talon: bool = True) -> list[float]:
        """Estimated tricks per strain (♠ ♣ ♦ ♥ NT), with the talon's gain if unseen."""
        gain = TALON_GAIN if talon else 0.0
        return [strain_tricks(hand, s) + gain + self.boldness for s in range(5)]

    def misere_ok(self, hand: int) -> bool:
        """A misère worth bidding: no hole the two-card discard cannot shed."""
        return misere_holes(hand) <= (1 if self.boldness > 0 else 0)

    def bid_limits(self, obs: Observation) -> dict[int, int]:
        """The highest level worth playing in each strain (below 6: none)."""
        est = self.estimates(obs.hand)
        return {s: min(10, int(est[s] + 1e-9)) for s in range(5)}

    def _bidding(self, obs: Observation) -> Action | None:
        legal = obs.legal_actions
        if MISERE in legal and max(self.estimates(obs.hand)) < 7.0 and self.misere_ok(obs.hand):
            return MISERE
        best_level = self.bid_limits(obs)

        def fits(c: Contract) -> bool:
            if c.is_misere or c.without_talon:
                return False
            return any((c.level, c.strain) <= (best_level[s], s) for s in range(5))

        if HERE in legal:
            current = _last_bid(obs)
            if current is not None and fits(current):
                return HERE
        for a in legal:
            c = a.contract
            if a.is_bid and not a.is_dark and c is not None and fits(c):
                return a  # the lowest acceptable bid: legal bids come in ladder order
        return PASS

    def _misere_invite(self, obs: Observation) -> Action | None:
        # Kodeks 3.6.9: the 4-handed dealer saw the inviter's cards.
        inviter = next((s for s, a in reversed(obs.moves) if a is not None and str(a) == "invite"), None)
        hand = obs.known_hands.get(inviter, 0) if inviter is not None else 0
        return ACCEPT if hand and misere_holes(hand) <= 1 else REFUSE

    def _misere_catch(self, obs: Observation) -> Action | None:
        # misere_catchers="one_for_both": one player for both open hands never miscoordinates,
        # so the first asked says «ловлю» and a partner who said it is trusted («доверяю»).
        return ACCEPT if ACCEPT in obs.legal_actions else WHIST

    # ------------------------------------------------------------------ talon and contract
    def _discard(self, obs: Observation) -> Action | None:
        hand = obs.hand
        if obs.discard:
            full, plan = self._discard_plan
            rest = plan & ~obs.discard
            if full == hand | obs.discard and rest & hand:
                return Action.from_card(cards_of(rest & hand)[0])
            one = self._plan_discard(hand | obs.discard, obs) & ~obs.discard
            cards = cards_of(one & hand) or cards_of(hand)
            return Action.from_card(cards[0])
        plan = self._plan_discard(hand, obs)
        self._discard_plan = (hand, plan)
        return Action.from_card(cards_of(plan)[0])

    def _plan_discard(self, hand12: int, obs: Observation) -> int:
        if obs.contract is not None and obs.contract.is_misere:
            return misere_keep(hand12)
        best, best_val = 0, -1.0
        for s in range(5):
            d = choose_discard(hand12, s)
            v = strain_tricks(hand12 & ~d, s)
            if v > best_val:
                best, best_val = d, v
        return best

    def _declare(self, obs: Observation) -> Action | None:
        legal = obs.legal_actions
        if MISERE in legal and misere_holes(obs.hand) == 0:
            return MISERE
        est = self.estimates(obs.hand, talon=False)
        seat = obs.seat
        best: Action | None = None
        best_val = float("-inf")
        for a in legal:
            c = a.contract
            if c is None or c.is_misere:
                continue
            u = game_utility(self.rules, standing=self._standing(obs),
                             players=obs.players, dealer=obs.dealer, seat=seat,
                             declarer=seat, contract=Contract(c.level, c.strain),
                             calls=("whist", "whist"))
            v = expected(u, est[c.strain], 1.0)
            if v > best_val:
                best, best_val = a, v
        if best is None and MISERE in legal:
            return MISERE
        return best

    # ------------------------------------------------------------------ whisting
    def declarer_estimate(self, obs: Observation) -> float:
        """The declarer's likely tricks, as a defender sees it from its own hand."""
        c = obs.contract
        assert c is not None
        mine = defence_tricks(obs.hand, c.trump)
        partner = max(0.0, (10 - c.level - 0.6) / 2)
        return max(0.0, min(10.0, 10 - mine - partner))

    def _whist(self, obs: Observation) -> Action | None:
        return self.choose_whist(obs, self.declarer_estimate(obs), 1.2)

    def choose_whist(self, obs: Observation, mean: float, spread: float) -> Action | None:
        """Whist, pass or half-whist by expected score over tricks about ``mean``."""
        c = obs.contract
        assert c is not None and obs.declarer is not None
        d1, d2 = _defenders(obs)
        me = obs.seat
        calls = _whist_calls(obs)
        partner = d2 if me == d1 else d1
        contract = Contract(c.level, c.strain)

        def value(mine: str, theirs: str) -> float:
            pair = (mine, theirs) if me == d1 else (theirs, mine)
            u = game_utility(self.rules, standing=self._standing(obs), players=obs.players, dealer=obs.dealer, seat=me,
                             declarer=obs.declarer, contract=contract, calls=pair)
            return expected(u, mean, spread)

        options: dict[Action, float] = {}
        for a in obs.legal_actions:
            mine = {WHIST: "whist", PASS: "pass", HALF_WHIST: "half"}.get(a)
            if mine is None:
                continue
            if partner in calls and calls[partner] != "half":
                theirs = [calls[partner]]
            elif partner in calls:  # answering a half-whist: my pass leaves it
                theirs = ["half"] if mine == "pass" else ["pass"]
            elif mine == "half":
                theirs = ["pass"]
            else:
                theirs = ["whist", "pass"]
            options[a] = sum(value(mine, t) for t in theirs) / len(theirs)
        if not options:
            return None
        return max(options, key=lambda a: options[a])

    def _defence(self, obs: Observation) -> Action | None:
        legal = obs.legal_actions
        c = obs.contract
        assert c is not None and obs.declarer is not None
        mean = self.declarer_estimate(obs)
        if QUOTA in legal:
            d1, _ = _defenders(obs)
            pair = ("whist", "pass") if obs.seat == d1 else ("pass", "whist")
            contract = Contract(c.level, c.strain)
            quota = settled_utility(self.rules, standing=self._standing(obs), players=obs.players, dealer=obs.dealer,
                                    seat=obs.seat, declarer=obs.declarer, contract=contract,
                                    calls=pair, za_svoimi=True)
            u = game_utility(self.rules, standing=self._standing(obs),
                             players=obs.players, dealer=obs.dealer, seat=obs.seat,
                             declarer=obs.declarer, contract=contract, calls=pair)
            if quota > expected(u, mean, 1.2):
                return QUOTA
        if PLAY in legal:
            return PLAY
        # Open (лёжа) when the whister alone is short of the quota: seeing the
        # partner's cards is then worth more than hiding them from the declarer.
        alone = defence_tricks(obs.hand, c.trump)
        return OPEN if alone < QUOTAS[c.level] else CLOSED

    def _quota_answer(self, obs: Observation) -> Action | None:
        c = obs.contract
        assert c is not None
        mine = self.estimates(obs.hand, talon=False)[c.strain]
        calls = _whist_calls(obs)
        d1, d2 = _defenders(obs)
        pair = (calls.get(d1, "pass"), calls.get(d2, "pass"))
        contract = Contract(c.level, c.strain)
        quota = settled_utility(self.rules, standing=self._standing(obs),
                                players=obs.players, dealer=obs.dealer, seat=obs.seat,
                                declarer=obs.seat, contract=contract, calls=pair, za_svoimi=True)
        u = game_utility(self.rules, standing=self._standing(obs),
                         players=obs.players, dealer=obs.dealer, seat=obs.seat,
                         declarer=obs.seat, contract=contract, calls=pair)
        return ACCEPT if quota >= expected(u, mine, 1.0) else REFUSE

    def _concession(self, obs: Observation) -> Action | None:
        c = obs.contract
        assert c is not None
        mine = self.estimates(obs.hand, talon=False)[c.strain]
        return self.choose_concession(obs, mine, 1.0)

    def choose_concession(self, obs: Observation, mean: float, spread: float) -> Action | None:
        c = obs.contract
        assert c is not None
        calls = _whist_calls(obs)
        d1, d2 = _defenders(obs)
        pair = (calls.get(d1, "pass"), calls.get(d2, "pass"))
        contract = Contract(c.level, c.strain)
        kw: dict[str, Any] = {"players": obs.players, "dealer": obs.dealer, "seat": obs.seat,
              "declarer": obs.seat, "contract": contract, "calls": pair,
              "standing": self._standing(obs)}
        u = game_utility(self.rules, **kw)
        options = {PLAY: expected(u, mean, spread)}
        if CONCEDE_THREE in obs.legal_actions:
            options[CONCEDE_THREE] = settled_utility(self.rules, conceded=3, **kw)
        if CONCEDE_ALL in obs.legal_actions:
            options[CONCEDE_ALL] = settled_utility(self.rules, conceded=10, **kw)
        return max(options, key=lambda a: options[a])

    # ------------------------------------------------------------------ card play
    def _play(self, obs: Observation) -> Action | None:
        legal = obs.legal_actions
        if self.careless and self._rng.random() < self.careless:
            return self._rng.choice(legal)
        v = TrickView.of(obs)
        cards = [int(a) for a in legal if a < 32]
        if not cards:
            return None
        card = self._play_game(v, cards) if v.kind == "game" else self._play_low(v, cards, obs)
        return Action.from_card(card)

    def _play_game(self, v: TrickView, cards: list[int]) -> int:
        me = v.player
        if v.led is None:
            return self._lead_game(v, cards)
        partner_wins = v.winner is not None and v.partners(v.winner, me)
        if partner_wins:
            assert v.winning_card is not None
            nxt = v.next_player()
            safe = v.last_to_play or v.is_master(v.winning_card) or v.partners(nxt, me)
            if safe:
                return self._cheapest(v, cards)
        winners = [c for c in cards if v.beats(c)]
        if winners:
            low_win = min(winners, key=lambda c: (c >> 3 == v.trump, c & 7))
            if v.last_to_play or v.is_master(low_win):
                return low_win
            nxt = v.next_player()
            if v.partners(nxt, me):
                return self._cheapest(v, cards)  # second hand low: the partner is behind
            return max(winners, key=lambda c: (c >> 3 != v.trump, c & 7))  # third hand high
        return self._cheapest(v, cards)

    def _lead_game(self, v: TrickView, cards: list[int]) -> int:
        me = v.player
        trump = v.trump
        if me == v.declarer:
            if trump is not None and v.out & SUIT_MASKS[trump]:
                tops = [c for c in cards if c >> 3 == trump and v.is_master(c)]
                if tops:
                    return max(tops)  # draw trumps
            masters = [c for c in cards if v.is_master(c) and v.out & SUIT_MASKS[c >> 3]]
            if masters:
                return max(masters, key=lambda c: (c >> 3 != trump, c & 7))
            long_suit = max(range(4), key=lambda s: (v.hand & SUIT_MASKS[s]).bit_count())
            own = [c for c in cards if c >> 3 == long_suit]
            return min(own or cards, key=lambda c: c & 7)
        masters = [c for c in cards if v.is_master(c) and c >> 3 != trump and v.out & SUIT_MASKS[c >> 3]]
        if masters:
            return max(masters, key=lambda c: c & 7)
        side = [c for c in cards if c >> 3 != trump] or cards
        short = min({c >> 3 for c in side}, key=lambda s: (v.hand & SUIT_MASKS[s]).bit_count())
        return min((c for c in side if c >> 3 == short), key=lambda c: c & 7)

    def _cheapest(self, v: TrickView, cards: list[int]) -> int:
        """The card that costs least: the lowest of the led suit, else a low side card."""
        trump = v.trump

        def cost(c: int) -> tuple[int, int, int]:
            s = c >> 3
            master = 1 if v.is_master(c) else 0
            length = (v.hand & SUIT_MASKS[s]).bit_count()
            return (s == trump, master, (c & 7) * 2 - length)

        return min(cards, key=cost)

    def _play_low(self, v: TrickView, cards: list[int], obs: Observation) -> int:
        """Misère and all-pass: take as few tricks as possible (or, catching a misère,
        make the declarer take them)."""
        me = v.player
        catcher = v.kind == "misere" and me != v.declarer
        if catcher:
            return self._catch(v, cards)
        if v.led is None:
            return self._lead_low(v, cards)
        # duck, shed the top when the trick is ours anyway, throw the highest when void:
        # the one rule, shared with the expert's all-pass play-outs
        return all_pass_card(v.hand, v.led, v.winning_card, v.last_to_play)

    def _lead_low(self, v: TrickView, cards: list[int]) -> int:
        """Lead a card the others must overtake: few of their cards below it."""

        def key(c: int) -> tuple[int, int, int]:
            s = c >> 3
            below = (v.out & SUIT_MASKS[s] & ((1 << c) - 1)).bit_count()
            above = (v.out & SUIT_MASKS[s] & ~((2 << c) - 1)).bit_count()
            return (below, 0 if above else 1, c & 7)

        return min(cards, key=key)

    def _catch(self, v: TrickView, cards: list[int]) -> int:
        """A misère catcher: leave the declarer room to win, lead his weak suits."""
        decl = v.declarer
        assert decl is not None
        if v.led is None:
            # Lead low in the suit where the declarer may hold the most cards above it.
            return min(cards, key=lambda c: (-(v.out & SUIT_MASKS[c >> 3]).bit_count(), c & 7))
        if v.winner == decl:
            under = [c for c in cards if not v.beats(c)]
            if under:
                return max(under, key=lambda c: c & 7)
        follow = [c for c in cards if c >> 3 == v.led]
        if follow:
            return min(follow, key=lambda c: c & 7)
        return max(cards, key=lambda c: c & 7)  # void: throw the highest
