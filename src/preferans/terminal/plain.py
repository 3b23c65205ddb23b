"""``preferans play --plain``: the whole game as lines of text, for screen readers and pipes.

Every prompt lists the legal actions; input is the listed name, the engine's
text (``AS``, ``7NT``) or the words of the table (``пас``, ``вист``, ``шесть пик``).
Wrong input gets a message and the prompt again, never a crash; end of input
saves and quits.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..actions import Action
from ..engine.deal import Phase
from ..errors import InputError, PreferansError
from ..scoring.text_sheet import render_text
from ..table import Table
from .narrate import Narrator
from .words import (
    action_name,
    contract_text,
    game_end_text,
    hand_text,
    hint_lines,
    legal_names,
    played_mask,
    read_action,
)

__all__ = ["COMMANDS", "PlainGame"]

COMMANDS: dict[str, str] = {
    "help": "help", "?": "help", "помощь": "help", "справка": "help",
    "hand": "hand", "карты": "hand", "рука": "hand",
    "trick": "trick", "стол": "trick", "взятка": "trick",
    "last": "last", "последняя": "last",
    "sheet": "sheet", "score": "sheet", "пуля": "sheet", "пулька": "sheet",
    "hint": "hint", "подсказка": "hint", "совет": "hint",
    "undo": "undo", "отмена": "undo",
    "auto": "auto", "автоход": "auto",
    "quit": "quit", "exit": "quit", "q": "quit", "выход": "quit",
}  # fmt: skip

YES = frozenset(("y", "yes", "д", "да", "снести", "discard"))
NO = frozenset(("n", "no", "н", "нет", "отмена", "cancel"))
"""The answers to «discard these two?», English and Russian."""
"""The words of the line mode's commands, English and Russian."""


class PlainGame(Narrator):
    """Runs a :class:`Table` in line mode until the pulka ends, the input ends, or ``quit``."""

    def __init__(
        self,
        table: Table,
        *,
        lang: str = "en",
        out: TextIO | None = None,
        inp: TextIO | None = None,
        quit_save: Path | None = None,
        ranks: str | None = None,
    ) -> None:
        super().__init__(table, lang=lang, ranks=ranks)
        self.out = out if out is not None else sys.stdout
        self.inp = inp if inp is not None else sys.stdin
        self.quit_save = quit_save
        self.discard: list[Action] = []  # the discard chosen so far, sent only when confirmed

    def say(self, text: str = "") -> None:
        print(self.cards(text), file=self.out, flush=True)

    def show_trick(self) -> None:
        deal, t = self.table.deal, self.t
        contract = contract_text(deal, [self.name(s) for s in range(deal.seats)], self.lang, self.you)
        trump = deal.trump
        strain = t("trumps {suit}", suit="♠♣♦♥"[trump]) if trump is not None else t("no trumps")
        tricks = ", ".join(f"{self.name(s)} {deal.tricks_won[s]}" for s in deal.active)
        cards = ", ".join(f"{self.name(s)} {c}" for s, c in deal.trick) or "—"
        self.say(t("{contract}; {strain}; tricks: {tricks}. Trick {n}: {cards}", contract=contract, strain=strain,
                   tricks=tricks, n=len(deal.completed_tricks) + 1, cards=cards))  # fmt: skip

    def show_last(self) -> None:
        done = self.table.deal.completed_tricks
        if not done:
            self.say(self.t("No trick has been played yet"))
            return
        cards, winner = done[-1]
        played = ", ".join(f"{self.name(s)} {c}" for s, c in cards)
        self.say(self.t("Last trick: {cards} — {taken}", cards=played, taken=self.takes(winner)))
        self.say(self.t("Cards played: {cards}", cards=hand_text(played_mask(self.table.deal))))

    def show_sheet(self, final: bool = False) -> None:
        p = self.table.pulka
        self.say()
        self.say(self.t("Final settlement (whists)") if final else self.t("Score sheet"))
        self.say(render_text(p.sheet, p.rules, p.settlement(), lang=self.lang))

    # -- input -------------------------------------------------------------------------
    def prompt(self, seat: int) -> str:
        deal, t = self.table.deal, self.t
        phase = deal.phase
        if phase is Phase.PLAY:
            self.show_trick()
            player = deal.to_play if deal.to_play is not None else seat
            self.say(f"{t('Your hand')}: {hand_text(deal.hands[seat])}")
            if player != seat:
                self.say(f"{self.hand_label(player)}: {hand_text(deal.hands[player])}")
                head = self.playing_for(player)
            else:
                head = t("Your card")
        elif phase is Phase.DISCARD:
            self.say(f"{t('Your hand')}: {hand_text(deal.hands[seat])}")
            if len(self.discard) == 2:
                cards = " ".join(str(a) for a in self.discard)
                return f"{t('Discard {cards}?', cards=cards)} [{t('yes')}, {t('no')}]: "
            if self.discard:
                head = t("Discard two cards: {card} and one more", card=str(self.discard[0]))
                left = [a for a in legal_names(deal, self.lang) if a != action_name(self.discard[0], self.lang)]
                return f"{head} [{', '.join(left)}]: "
            head = t("Discard two cards (one or both on a line)")
        else:
            head = t.p("prompt", phase.value)
        choices = ", ".join(legal_names(deal, self.lang))
        return f"{head} [{choices}]: "

    def _read(self, prompt: str) -> str | None:
        print(self.cards(prompt), end="", file=self.out, flush=True)
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        if not self.inp.isatty():
            self.say(line.rstrip("\n"))  # echo piped input so a transcript reads as a dialogue
        return line.strip()

    def _command(self, word: str) -> bool | None:
        """Run a command word; ``None`` means quit, ``False`` that it was no command."""
        cmd = COMMANDS.get(word.lower())
        if cmd is None:
            return False
        table, deal, t = self.table, self.table.deal, self.t
        if cmd == "help":
            self.say(t("Commands: a card or call as listed (also 'AS', 'pass', 'six spades'); hand, trick, last, "
                       "sheet, hint, undo, auto, help, quit.  With the table options claims / irregularity_reports: "
                       "'claim N', 'claim rest', 'report talon-seen|talon-exposed|talon-taken|misdeal WHO', "
                       "'report out-of-turn WHO CALL'."))  # fmt: skip
        elif cmd == "hand":
            seat = self.viewer if self.viewer is not None else 0
            self.say(f"{t('Your hand')}: {hand_text(deal.hands[seat])}")
        elif cmd == "trick":
            self.show_trick()
        elif cmd == "last":
            self.show_last()
        elif cmd == "sheet":
            self.show_sheet()
        elif cmd == "hint":
            self.show_hint()
        elif cmd == "undo":
            self.undo()
        elif cmd == "auto":
            table.auto_single = not table.auto_single
            self.say(t("auto-play of a single card: on") if table.auto_single else t("auto-play of a single card: off"))
        elif cmd == "quit":
            return None
        return True

    def choose_discard(self, line: str, seat: int) -> None:
        """The discard: one or two cards a line, then «discard these two? yes / no»; the two are
        sent only on «yes» (a card sent is gone: the engine takes no discard back)."""
        t = self.t
        key = line.strip().lower()
        if len(self.discard) == 2:
            if key in YES:
                chosen, self.discard = self.discard, []
                for a in chosen:
                    self.table.act(a, seat)
            elif key in NO:
                self.discard = []
                self.say(t("Choose the discard again"))
            else:
                raise InputError(t("answer yes or no"))
            return
        for card in self._cards_of(line):
            if card in self.discard:
                raise InputError(t("{card} is chosen already; choose another card", card=action_name(card, self.lang)))
            self.discard.append(card)

    def _cards_of(self, line: str) -> list[Action]:
        """One card or two on a line (``Т♠ К♦``, ``туз пик король бубен``, ``AS KD``)."""
        deal = self.table.deal
        try:
            return [read_action(deal, line, self.lang)]
        except PreferansError as first:
            words = line.split()
            for k in range(1, len(words)):
                try:
                    pair = [read_action(deal, " ".join(words[:k]), self.lang),
                            read_action(deal, " ".join(words[k:]), self.lang)]  # fmt: skip
                except PreferansError:
                    continue
                if len(self.discard) + len(pair) <= 2 and pair[0] != pair[1]:
                    return pair
            raise first

    def undo(self) -> None:
        table, t = self.table, self.t
        if not table.practice:
            self.say(t("undo works in practice mode only (--practice)"))
            return
        if not any(table.is_human(s) for s, _ in table.deal.moves):
            self.say(t("Nothing to take back: you have not moved in this deal yet"))
            return
        try:
            undone = table.undo()
        except PreferansError as e:
            self.say(f"! {t.text(e)}")
            return
        self.discard = []
        self.resync()
        moves = ", ".join(f"{self.name(s)} {action_name(a, self.lang)}" for s, a in reversed(undone))
        self.say(t("Taken back: {moves}", moves=moves))

    def show_hint(self) -> None:
        for line in hint_lines(self.table, self.t):
            self.say(line)

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> int:
        table, t = self.table, self.t
        if table.deal.moves:
            self.retell()  # a resumed game: the deal so far, as it was told
        else:
            self.banner()
        while True:
            table.run_bots()
            while table.notices:  # a bot program failed and another bot took its seat
                self.say("! " + t.text(table.notices.pop(0)))
            if table.deal.is_over:
                if table.is_over:
                    break
                table.next_deal()
                self.banner()
                continue
            seat = table.human_to_act
            assert seat is not None
            line = self._read(self.prompt(seat))
            if line is None or self._command(line) is None:
                return self.quit()
            if COMMANDS.get(line.lower()):
                continue
            if line and line.split()[0].lower() in table.COMMANDS:
                try:
                    self.say(table.command(line, seat))  # issue 10: behind table options
                except PreferansError as e:
                    self.say(f"! {t.text(e)}")
                continue
            try:
                if table.deal.phase is Phase.DISCARD:
                    self.choose_discard(line, seat)
                    continue
                action = read_action(table.deal, line, self.lang)
                table.act(action, seat)
            except PreferansError as e:
                self.say(f"! {t.text(e)}")
        self.say()
        self.say(game_end_text(table, self.lang))
        self.show_sheet(final=True)
        return 0

    def quit(self) -> int:
        table = self.table
        target = table.save_path or self.quit_save
        if target is not None and not table.is_over:
            table.save(target)
            self.say(self.t("Game saved to {path}", path=target))
            self.say(self.t("Resume with: preferans play --resume {path}", path=target))
        self.show_sheet()
        return 0


def run_plain(table: Table, *, lang: str = "en", quit_save: Path | None = None, out: TextIO | None = None,
              inp: TextIO | None = None, ranks: str | None = None) -> int:  # fmt: skip
    return PlainGame(table, lang=lang, out=out, inp=inp, quit_save=quit_save, ranks=ranks).run()
