"""``preferans play --plain``: the whole game as lines of text, for screen readers and pipes.

Every prompt lists the legal actions; input is the listed name, the engine's
text (``AS``, ``7NT``) or a Russian word (``пас``, ``вист``).  Wrong input gets
a message and the prompt again, never a crash; end of input saves and quits.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..engine.deal import Phase
from ..errors import PreferansError
from ..scoring.text_sheet import render_text
from ..table import Table
from .narrate import Narrator
from .words import action_name, contract_text, hand_text, legal_names, played_mask, read_action

__all__ = ["PlainGame"]

_COMMANDS: dict[str, str] = {
    "help": "help", "?": "help", "помощь": "help",
    "hand": "hand", "карты": "hand",
    "trick": "trick", "стол": "trick",
    "last": "last", "последняя": "last",
    "sheet": "sheet", "score": "sheet", "пуля": "sheet", "пулька": "sheet",
    "hint": "hint", "подсказка": "hint",
    "undo": "undo", "отмена": "undo",
    "auto": "auto", "автоход": "auto",
    "quit": "quit", "exit": "quit", "q": "quit", "выход": "quit",
}  # fmt: skip


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
    ) -> None:
        super().__init__(table, lang=lang)
        self.out = out if out is not None else sys.stdout
        self.inp = inp if inp is not None else sys.stdin
        self.quit_save = quit_save

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show_trick(self) -> None:
        deal = self.table.deal
        contract = contract_text(deal, [self.name(s) for s in range(deal.players)], self.lang, self.you)
        trump = deal.trump
        strain = self.t("trumps", suit="♠♣♦♥"[trump]) if trump is not None else self.t("no_trumps")
        tricks = ", ".join(f"{self.name(s)} {deal.tricks_won[s]}" for s in deal.active)
        cards = ", ".join(f"{self.name(s)} {c}" for s, c in deal.trick) or "—"
        self.say(f"{contract}; {strain}; {self.t('tricks')}: {tricks}. "
                 f"{self.t('trick', n=len(deal.completed_tricks) + 1)}: {cards}")  # fmt: skip

    def show_last(self) -> None:
        done = self.table.deal.completed_tricks
        if not done:
            self.say(self.t("no_last_trick"))
            return
        cards, winner = done[-1]
        played = ", ".join(f"{self.name(s)} {c}" for s, c in cards)
        self.say(f"{self.t('last_trick')}: {played} — {self.takes(winner)}")
        self.say(f"{self.t('played')}: {hand_text(played_mask(self.table.deal))}")

    def show_sheet(self, final: bool = False) -> None:
        p = self.table.pulka
        self.say()
        self.say(self.t("settlement") if final else self.t("sheet"))
        self.say(render_text(p.sheet, p.rules, p.settlement()))

    # -- input -------------------------------------------------------------------------
    def prompt(self, seat: int) -> str:
        deal, t = self.table.deal, self.t
        phase = deal.phase
        if phase is Phase.PLAY:
            self.show_trick()
            player = deal.to_play if deal.to_play is not None else seat
            self.say(f"{t('your_hand')}: {hand_text(deal.hands[seat])}")
            if player != seat:
                self.say(f"{t('hand_of', name=self.name(player))}: {hand_text(deal.hands[player])}")
                head = t("prompt.play_for", name=self.name(player))
            else:
                head = t("prompt.play")
        elif phase is Phase.DISCARD:
            self.say(f"{t('your_hand')}: {hand_text(deal.hands[seat])}")
            head = t("prompt.discard", k=13 - deal.hands[seat].bit_count())
        else:
            head = t("prompt." + phase.value)
        choices = ", ".join(legal_names(deal, self.lang))
        return f"{head} [{choices}]: "

    def _read(self, prompt: str) -> str | None:
        print(prompt, end="", file=self.out, flush=True)
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        if not self.inp.isatty():
            self.say(line.rstrip("\n"))  # echo piped input so a transcript reads as a dialogue
        return line.strip()

    def _command(self, word: str) -> bool | None:
        """Run a command word; ``None`` means quit, ``False`` that it was no command."""
        cmd = _COMMANDS.get(word.lower())
        if cmd is None:
            return False
        table, deal = self.table, self.table.deal
        if cmd == "help":
            self.say(self.t("commands"))
        elif cmd == "hand":
            seat = self.viewer if self.viewer is not None else 0
            self.say(f"{self.t('your_hand')}: {hand_text(deal.hands[seat])}")
        elif cmd == "trick":
            self.show_trick()
        elif cmd == "last":
            self.show_last()
        elif cmd == "sheet":
            self.show_sheet()
        elif cmd == "hint":
            self.show_hint()
        elif cmd == "undo":
            if not table.practice:
                self.say(self.t("undo_practice"))
            else:
                undone = table.undo()
                self.resync()
                moves = ", ".join(f"{self.name(s)} {action_name(a, self.lang)}" for s, a in reversed(undone))
                self.say(self.t("undone", moves=moves))
        elif cmd == "auto":
            table.auto_single = not table.auto_single
            self.say(self.t("auto_on") if table.auto_single else self.t("auto_off"))
        elif cmd == "quit":
            return None
        return True

    def show_hint(self) -> None:
        h = self.table.hint()
        text = self.t("hint", level=self.table.hint_level, action=action_name(h.action, self.lang))
        if h.why[0]:
            text += f" — {self.t.why(h.why)}"
        self.say(text)
        if h.values:
            best = sorted(h.values.items(), key=lambda kv: -kv[1])[:8]
            values = ", ".join(f"{action_name(a, self.lang)} {v:+.2f}" for a, v in best)
            self.say(f"  {self.t('hint_values')}: {values}")

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> int:
        table = self.table
        if table.deal.moves:
            self.say(f"=== {self.t('deal_header', n=table.deal_number, rules=table.rules.name, pool=table.rules.pool_target, dealer=self.name(table.deal.dealer))} ===")  # noqa: E501
            self.resync()
            if self.viewer is not None:
                self.say(f"{self.t('your_hand')}: {hand_text(table.deal.hands[self.viewer])}")
        else:
            self.banner()
        while True:
            table.run_bots()
            while table.notices:  # a bot program failed and another bot took its seat
                self.say("! " + table.notices.pop(0))
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
            if _COMMANDS.get(line.lower()):
                continue
            if line and line.split()[0].lower() in ("report", "claim", "нарушение", "заявка"):
                try:
                    self.say(table.command(line, seat))  # issue 10: behind table options
                except PreferansError as e:
                    self.say(f"! {e}")
                continue
            try:
                action = read_action(table.deal, line, self.lang)
                table.act(action, seat)
            except PreferansError as e:
                self.say(f"! {e}")
        self.say()
        self.say(self.t("game_over"))
        self.show_sheet(final=True)
        return 0

    def quit(self) -> int:
        table = self.table
        target = table.save_path or self.quit_save
        if target is not None and not table.is_over:
            table.save(target)
            self.say(self.t("saved", path=target))
            self.say(self.t("resume_with", path=target))
        self.show_sheet()
        return 0


def run_plain(table: Table, *, lang: str = "en", quit_save: Path | None = None,
              out: TextIO | None = None, inp: TextIO | None = None) -> int:  # fmt: skip
    return PlainGame(table, lang=lang, out=out, inp=inp, quit_save=quit_save).run()

