"""The story of a game as lines: who called what, the talon, the tricks, the results.

A :class:`Narrator` listens to a :class:`~preferans.table.Table` and tells each
move from one seat's point of view (a hidden discard stays hidden), in
English or Russian.  The plain mode prints its lines; the full-screen
interface writes them to its log.  When the viewer is called «You» the
sentences about him are in the second person («Вы сдаёте и не играете»).
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import Action
from ..cards import RANKS, with_ranks
from ..engine.deal import Phase
from ..i18n import Translator, preset_name
from ..seats import dummy_seat
from ..table import Table
from .words import action_name, hand_text, result_text

__all__ = ["YOU", "Narrator", "default_ranks"]

YOU = ("You", "Вы")
"""The names a lone person gets (``default_names``): sentences about him take the second person."""


def default_ranks(lang: str) -> str:
    """The rank letters a player of ``lang`` reads by default: Т К Д В in Russian (as Russian packs
    and books print them), A K Q J in English (docs/play.md)."""
    return "ru" if lang == "ru" else "en"


class Narrator:
    """Tells ``table``'s moves through ``say``; ``viewer`` is the seat whose view is told (``None``: all).

    ``ranks`` are the rank letters cards are shown in (``en`` A K Q J, ``ru`` Т К Д В; default: the
    language's, :func:`default_ranks`)."""

    def __init__(self, table: Table, *, lang: str = "en", say: Callable[[str], None] = print,
                 ranks: str | None = None) -> None:  # fmt: skip
        self.table = table
        self.t = Translator(lang)
        self.lang = lang
        self.ranks = ranks if ranks in RANKS else default_ranks(lang)
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
        self._say(self.cards(text))

    def cards(self, text: str) -> str:
        """``text`` with its cards in the player's rank letters (Т К Д В or A K Q J)."""
        return with_ranks(text, self.ranks)

    def name(self, seat: int) -> str:
        """A player's name; a negative seat is the talon card leading an all-pass trick (Kodeks 3.7.6);
        in гусарик seat 2 is the dummy («болван», rules.md §16)."""
        if seat < 0:
            return self.t("talon")
        if seat == dummy_seat(self.table.players):
            return self.t.p("seat", "dummy")
        if seat == self.you:
            return self.t("You")
        return self.table.names[seat]

    def playing_for(self, seat: int) -> str:
        """The prompt when the person plays another hand's card: the dummy's in гусарик (rules.md
        §16), an open partner's or the passer's in open defence — the web client's words too."""
        if seat == dummy_seat(self.table.players):
            return self.t("Playing for the dummy")
        return self.t("Playing for {name}", name=self.name(seat))

    def hand_label(self, seat: int) -> str:
        """The label before another hand's cards: «The dummy's hand», «Vera's hand»."""
        if seat == dummy_seat(self.table.players):
            return self.t("The dummy's hand")
        return self.t("{name}'s hand", name=self.name(seat))

    @property
    def you(self) -> int | None:
        """The viewer's seat when the table calls him «You» (so texts say «you play», not «You plays»)."""
        v = self.viewer
        return v if v is not None and self.table.names[v] in YOU else None

    def takes(self, seat: int) -> str:
        if seat == self.you:
            return self.t("you take the trick")
        return self.t("{name} takes the trick", name=self.name(seat))

    def sits_out(self, seat: int) -> str:
        if seat == self.you:
            return self.t("You deal and sit out")
        return self.t("{name} deals and sits out", name=self.name(seat))

    def header(self) -> str:
        table, t = self.table, self.t
        return t("Deal {n} — {rules}, pool {pool} — dealer: {dealer}", n=table.deal_number,
                 rules=preset_name(table.rules.name, self.lang),
                 pool=table.rules.pool_target, dealer=self.name(table.deal.dealer))  # fmt: skip

    def seat_kind(self, seat: int) -> str:
        spec = self.table.seats[seat]
        if spec == "human":
            return self.t("person")
        return self.t("bot, {level}", level=self.t.p("level", spec.removeprefix("bot:")))

    def _sees(self, seat: int) -> bool:
        return self.viewer is None or self.viewer == seat

    def banner(self) -> None:
        table, deal, t = self.table, self.table.deal, self.t
        self.say()
        self.say(f"=== {self.header()} ===")
        if table.deal_number == 1:
            self.say(", ".join(t("seat {n}: {name} ({kind})", n=i, name=self.name(i), kind=self.seat_kind(i))
                               for i in range(table.players)))  # fmt: skip
        if deal.min_level > 6:
            self.say(t("after the all-pass the lowest game is {level}", level=deal.min_level))
        if deal.players == 4:
            self.say(self.sits_out(deal.dealer))
        for s in deal.active:
            if self._sees(s):
                label = t("Your hand") if s == self.viewer else t("{name}'s hand", name=self.name(s))
                self.say(f"{label}: {hand_text(deal.hands[s])}")
        if self.viewer is None:
            self.say(t("Talon: {cards}", cards=" ".join(str(c) for c in deal.talon)))
        self._phase = deal.phase
        self._talon_shown = 0
        self._exposed = set()
        self._tricks_done = 0

    def trick_line(self, number: int, cards: tuple[tuple[int, int], ...], winner: int) -> str:
        played = ", ".join(f"{self.name(s)} {Action(c)}" for s, c in cards)
        return self.t("Trick {n}: {cards} — {taken}", n=number, cards=played, taken=self.takes(winner))

    def _on_move(self, seat: int, action: Action) -> None:
        deal, t = self.table.deal, self.t
        before, self._phase = self._phase, deal.phase
        who = self.name(seat)
        if before is Phase.DISCARD and action.is_card:
            if self._sees(seat):
                if seat == self.you:
                    self.say(t("You discard {card}", card=str(action)))
                else:
                    self.say(t("{name} discards {card}", name=who, card=str(action)))
            else:
                self.say(t("{name} discards a card", name=who))
        elif not action.is_card:
            self.say(f"{who}: {action_name(action, self.lang)}")
        for s in deal.exposed:
            if s not in self._exposed and self.viewer is not None and s != self.viewer:
                self._exposed.add(s)
                if s == dummy_seat(deal.players):  # гусарик: the whister lays the dummy down (rules.md §16)
                    self.say(t("The dummy is laid down: {cards}", cards=hand_text(deal.hands[s])))
                else:
                    self.say(t("{name} lies down: {cards}", name=self.name(s), cards=hand_text(deal.hands[s])))
        done = deal.completed_tricks
        while self._tricks_done < len(done):
            cards, winner = done[self._tricks_done]
            self._tricks_done += 1
            self.say(self.trick_line(self._tricks_done, cards, winner))
        if deal.talon_shown > self._talon_shown:
            shown = deal.talon[self._talon_shown : deal.talon_shown]
            self._talon_shown = deal.talon_shown
            if deal.declarer is None and deal.phase in (Phase.PLAY, Phase.OVER):
                for c in shown:
                    self.say(t("the talon card {card} leads", card=str(c)))
            elif self.viewer is not None:
                self.say(t("Talon: {cards}", cards=" ".join(str(c) for c in shown)))
        if deal.is_over:
            self.tell_result()

    def tell_result(self) -> None:
        deal, t = self.table.deal, self.t
        score = self.table.scores[-1] if self.table.scores else None
        names = [self.name(s) for s in range(deal.seats)]
        for line in result_text(deal.result, score, names, self.lang, rules=self.table.rules):
            self.say(line)
        sheet, seats = self.table.pulka.sheet, range(deal.players)
        pool = ", ".join(f"{names[i]} {sheet.pool[i]}" for i in seats)
        mountain = ", ".join(f"{names[i]} {sheet.mountain[i]}" for i in seats)
        self.say(t("pool: {pool}; mountain: {mountain}", pool=pool, mountain=mountain))

    def retell(self) -> None:
        """Tell the current deal again from its start, as it was told (after a resume): the
        banner, then every move from the viewer's point of view."""
        table = self.table
        real = table.deal
        moves = real.moves
        fresh = real.copy()
        while fresh.moves:
            fresh.undo()
        table.deal = fresh  # the story is told from a copy; the game itself is not touched
        try:
            self.banner()
            for seat, action in moves:
                fresh.replay_move(seat, action)
                self._on_move(seat, action)
        finally:
            table.deal = real
        self.resync()

    def resync(self) -> None:
        """Catch up silently with the deal (after an undo or a resume)."""
        deal = self.table.deal
        self._phase = deal.phase
        self._talon_shown = deal.talon_shown
        self._tricks_done = len(deal.completed_tricks)
        self._exposed = set(deal.exposed)
