"""The story of a game as lines: who called what, the talon, the tricks, the results.

A :class:`Narrator` listens to a :class:`~preferans.table.Table` and tells each
move from one seat's point of view (a hidden discard stays hidden), in
English or Russian.  The plain mode prints its lines; the full-screen
interface writes them to its log.
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import Action
from ..engine.deal import Phase
from ..table import Table
from .words import T, action_name, hand_text, result_text

__all__ = ["Narrator"]

_YOU = ("You", "Вы")


class Narrator:
    """Tells ``table``'s moves through ``say``; ``viewer`` is the seat whose view is told (``None``: all)."""

    def __init__(self, table: Table, *, lang: str = "en", say: Callable[[str], None] = print) -> None:
        self.table = table
        self.t = T(lang)
        self.lang = lang
        self._say = say
        humans = table.humans
        self.viewer: int | None = humans[0] if humans else None  # None: a bots-only game shows everything
        self._phase = Phase.BIDDING
        self._talon_shown = 0
        self._exposed: set[int] = set()
        self._tricks_done = 0
        table.listeners.append(self._on_move)

    # -- output ------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self._say(text)

    def name(self, seat: int) -> str:
        """A player's name; a negative seat is the talon card leading an all-pass trick (Kodeks 3.7.6)."""
        if seat < 0:
            return self.t("talon").lower()
        if seat == self.viewer and self.table.names[seat] in _YOU:
            return self.t("you")
        return self.table.names[seat]

    @property
    def you(self) -> int | None:
        """The viewer's seat when the table calls him «You» (so texts say «you play», not «You plays»)."""
        v = self.viewer
        return v if v is not None and self.table.names[v] in _YOU else None

    def takes(self, seat: int) -> str:
        if seat == self.viewer and self.table.names[seat] in _YOU:
            return self.t("you_take_trick")
        return self.t("takes_trick", name=self.name(seat))

    def _sees(self, seat: int) -> bool:
        return self.viewer is None or self.viewer == seat

    def banner(self) -> None:
        table, deal, t = self.table, self.table.deal, self.t
        self.say()
        self.say("=== " + t("deal_header", n=table.deal_number, rules=table.rules.name,
                                pool=table.rules.pool_target, dealer=self.name(deal.dealer)) + " ===")  # fmt: skip
        if table.deal_number == 1:
            seats = (f"{self.t('seat')} {i}: {self.name(i)} ({spec.replace('bot:', '')})"
                     for i, spec in enumerate(table.seats))  # fmt: skip
            self.say(", ".join(seats))
        if deal.min_level > 6:
            self.say(t("min_level", level=deal.min_level))
        if deal.players == 4:
            self.say(t("sits_out", name=self.name(deal.dealer)))
        for s in deal.active:
            if self._sees(s):
                label = t("your_hand") if s == self.viewer else t("hand_of", name=self.name(s))
                self.say(f"{label}: {hand_text(deal.hands[s])}")
        if self.viewer is None:
            self.say(f"{t('talon')}: {' '.join(str(c) for c in deal.talon)}")
        self._phase = deal.phase
        self._talon_shown = 0
        self._exposed = set()
        self._tricks_done = 0

    def _on_move(self, seat: int, action: Action) -> None:
        deal, t = self.table.deal, self.t
        before, self._phase = self._phase, deal.phase
        who = self.name(seat)
        if before is Phase.DISCARD and action.is_card:
            if self._sees(seat):
                if seat == self.you:
                    self.say(t("you_discard", card=str(action)))
                else:
                    self.say(t("discarded", name=who, card=str(action)))
            else:
                self.say(t("discards", name=who))
        elif not action.is_card:
            self.say(t("says", name=who, action=action_name(action, self.lang)))
        for s in deal.exposed:
            if s not in self._exposed and self.viewer is not None and s != self.viewer:
                self._exposed.add(s)
                self.say(t("lies_down", name=self.name(s), cards=hand_text(deal.hands[s])))
        done = deal.completed_tricks
        while self._tricks_done < len(done):
            cards, winner = done[self._tricks_done]
            self._tricks_done += 1
            played = ", ".join(f"{self.name(s)} {c}" for s, c in cards)
            self.say(f"{t('trick', n=self._tricks_done)}: {played} — {self.takes(winner)}")
        if deal.talon_shown > self._talon_shown:
            shown = deal.talon[self._talon_shown : deal.talon_shown]
            self._talon_shown = deal.talon_shown
            if deal.declarer is None and deal.phase in (Phase.PLAY, Phase.OVER):
                for c in shown:
                    self.say(t("talon_leads", card=str(c)))
            elif self.viewer is not None:
                self.say(t("talon_shown", cards=" ".join(str(c) for c in shown)))
        if deal.is_over:
            score = self.table.scores[-1] if self.table.scores else None
            names = [self.name(s) for s in range(deal.players)]
            for line in result_text(deal.result, score, names, self.lang):
                self.say(line)
            sheet, seats = self.table.pulka.sheet, range(deal.players)
            pool = ", ".join(f"{names[i]} {sheet.pool[i]}" for i in seats)
            mountain = ", ".join(f"{names[i]} {sheet.mountain[i]}" for i in seats)
            self.say(t("totals", pool=pool, mountain=mountain))

    def resync(self) -> None:
        """Catch up silently with the deal (after an undo or a resume)."""
        deal = self.table.deal
        self._phase = deal.phase
        self._talon_shown = deal.talon_shown
        self._tricks_done = len(deal.completed_tricks)
        self._exposed = set(deal.exposed)
