"""The full-screen game (Textual): a whole pulka against bots, keyboard only, fits 80×24.

Layout, top to bottom: a status line (deal, dealer, contract, trumps); the
table — the players with their calls, tricks and any hand lying face up, the
current trick with the talon, and the game's log; the prompt (up to two
lines); the choices (your hand sorted by suit with the legal cards bright and
the others dimmed, or the legal calls); the key help.  Hands are broken into
lines between suits only, never inside one.

Keys: ←/→ choose (the cursor stops at the ends), Enter play, s sheet, l last
trick, h hint (it marks its choice and never moves the cursor), u undo
(practice), a auto-play a forced card, t light/dark, ? help, q save and quit;
the same keys on the Russian layout (ы, д, р, г, ф, е, й).  In the discard Enter
marks two cards and a third Enter discards them (Esc chooses again).  Any other
key gets a one-line answer.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, RichLog, Static

from ..actions import Action
from ..cards import Card, iter_display, rank_text, with_ranks
from ..engine.deal import Phase
from ..errors import PreferansError
from ..scoring.text_sheet import render_text
from ..seats import dummy_seat
from ..table import Hint, Table
from .narrate import Narrator
from .words import (
    action_name,
    contract_text,
    display_order,
    game_end_text,
    hand_text,
    hint_reason,
    played_mask,
    read_action,
    result_text,
)  # fmt: skip

__all__ = ["PlayApp"]

_RED = "bold red"
_HINT = "underline bold"


def card_text(card: int, style: str = "", ranks: str = "en") -> Text:
    """A card with its suit's colour: red suits red, black suits in the text colour (light or dark);
    its rank in the player's letters (``ranks``: A K Q J or Т К Д В)."""
    c = Card(card)
    red = c.suit in (2, 3)
    return Text(rank_text(c, ranks), style=(_RED if red else "bold") + (" " + style if style else ""))


def suit_groups(mask: int) -> list[list[Card]]:
    """The cards of a hand by suit, in display order (♠ ♣ ♦ ♥, high to low)."""
    groups: list[list[Card]] = []
    for c in iter_display(mask):
        if not groups or groups[-1][0].suit != c.suit:
            groups.append([])
        groups[-1].append(c)
    return groups


def hand_lines(mask: int, width: int, first: int = 0) -> list[list[list[Card]]]:
    """The suits of a hand laid into lines of at most ``width`` characters (the first line has
    ``first`` fewer), breaking only between suits: a suit is never cut in two."""
    lines: list[list[list[Card]]] = [[]]
    used = first
    for group in suit_groups(mask):
        w = sum(len(str(c)) + 1 for c in group) + 1
        if lines[-1] and used + w > width:
            lines.append([])
            used = 0
        lines[-1].append(group)
        used += w
    return lines


_SUIT_GROUP = re.compile(r"[♠♣♦♥](?:10|[7-9AKQJВДКТ])(?: (?:10|[7-9AKQJВДКТ])(?![\w♠♣♦♥]))*")


def fold(text: str, width: int, sep: str = " ") -> list[str]:
    """``text`` broken into lines of at most ``width`` characters, never inside a suit of a
    hand (``♠K Q 7``) nor, with ``sep=" · "``, inside one of the parts it separates."""
    if width <= 0:
        return [text]
    if sep != " ":
        lines: list[str] = []
        for part in text.split(sep):
            if lines and len(lines[-1]) + len(sep) + len(part) <= width:
                lines[-1] += sep + part
            else:
                lines.append(part)
        return lines
    held = _SUIT_GROUP.sub(lambda m: m.group(0).replace(" ", "\x00"), text)
    out = textwrap.wrap(held, width, break_long_words=False, break_on_hyphens=False) or [""]
    return [line.replace("\x00", " ") for line in out]


class TextScreen(ModalScreen[None]):
    """A page of text over the table (sheet, help, last trick); any key closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,enter,space", "close", "close")]

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll {
        width: 100%; max-width: 100; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, title: str, body: str | Text, footer: str) -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._footer = footer

    def compose(self) -> ComposeResult:
        with VerticalScroll() as v:
            v.border_title = self._title
            v.border_subtitle = self._footer
            yield Static(self._body, id="page")

    def action_close(self) -> None:
        self.dismiss()

    def on_key(self, event: events.Key) -> None:
        if event.key not in ("up", "down", "pageup", "pagedown", "home", "end"):
            event.stop()
            self.dismiss()


class PlayApp(App[int]):
    """``preferans play``: the table drawn full-screen, driven by the keyboard."""

    TITLE = "preferans"
    AUTO_FOCUS = None  # nothing holds the keys but the game; the typing line takes them only when opened
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-background; color: $text; padding: 0 1; }
    #table { height: 1fr; }
    #seats { width: 30; padding: 0 1; border-right: vkey $secondary; }
    #trick { width: 22; padding: 0 1; }
    #log { width: 1fr; border-left: vkey $secondary; padding: 0 0 0 1; scrollbar-size-vertical: 1; }
    #prompt { height: auto; max-height: 2; padding: 0 1; color: $warning; text-style: bold; }
    #hand { height: auto; max-height: 2; padding: 0 1; }
    #bottom { height: auto; }
    #calls { height: auto; max-height: 3; padding: 0 1; }
    #typed { display: none; height: 1; border: none; padding: 0 1; }
    #typed.on { display: block; }
    #keys { height: 1; padding: 0 1; background: $primary-background; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "previous", show=False),
        Binding("right", "move(1)", "next", show=False),
        Binding("up", "move(-1)", "previous", show=False),
        Binding("down", "move(1)", "next", show=False),
        Binding("home", "jump(0)", "first", show=False),
        Binding("end", "jump(-1)", "last", show=False),
        Binding("enter,space", "choose", "play", show=False),
        # The letters and their places on the Russian layout (ЙЦУКЕН), so the keys work in either.
        Binding("s,ы", "sheet", "sheet", show=False),
        Binding("l,д", "last_trick", "last trick", show=False),
        Binding("h,р", "hint", "hint", show=False),
        Binding("u,г", "undo", "undo", show=False),
        Binding("a,ф", "auto", "auto-play", show=False),
        Binding("t,е", "theme_toggle", "light/dark", show=False),
        Binding("question_mark,f1,comma", "help", "help", show=False),
        Binding("colon,slash,ж,Ж,full_stop", "type", "type an action", show=False),
        Binding("escape", "cancel_typing", "cancel", show=False),
        Binding("q,й", "quit_game", "quit", show=False),
        Binding("ctrl+q,ctrl+c", "quit_game", "quit", show=False, priority=True),
    ]
    BOUND_KEYS = frozenset(k for b in BINDINGS if isinstance(b, Binding) for k in b.key.split(","))

    def __init__(
        self,
        table: Table,
        *,
        lang: str = "en",
        delay: float = 0.5,
        quit_save: Path | None = None,
        light: bool = False,
        ranks: str | None = None,
    ) -> None:
        super().__init__()
        self.table = table
        self.lang = lang
        self.delay = delay
        self.quit_save = quit_save
        self.light = light
        self.cursor = 0
        self.hinted: Action | None = None
        self.message = ""
        self.exit_message = ""
        self._busy = False
        self._hinting = False
        self._log_buffer: list[str] = []
        self.narrator = Narrator(table, lang=lang, say=self._log_line, ranks=ranks)
        self.ranks = self.narrator.ranks
        self.marked: list[Action] = []  # the discard chosen so far: sent only when confirmed
        self.t = self.narrator.t
        self.viewer = self.narrator.viewer if self.narrator.viewer is not None else 0

    # -- building ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="table"):
            yield Static(id="seats")
            yield Static(id="trick")
            log = RichLog(id="log", wrap=True, min_width=20)
            log.can_focus = False  # the keys belong to the game, not to scrolling the log
            yield log
        with Vertical(id="bottom", classes="bottom"):
            yield Static(id="prompt")
            yield Static(id="hand")
            yield Static(id="calls")
            yield Input(id="typed", placeholder=self.t("type a card or call (AS, pass, 7NT), Enter to play, "
                                                       "Esc to cancel"))  # fmt: skip
            yield Static(id="keys")

    def _widget(self, name: str) -> Static:
        """A widget of the table screen, also while a page (sheet, help) lies over it."""
        return self._main.query_one(f"#{name}", Static)

    def on_mount(self) -> None:
        self._main = self.screen
        self.theme = "textual-light" if self.light else "textual-dark"
        if self.table.deal.moves:
            self.narrator.retell()  # a resumed game: the deal so far in the log, as it was told
        else:
            self.narrator.banner()
        self.refresh_all()
        self.advance()

    def _log_line(self, text: str) -> None:
        if not text:
            return
        try:
            log = self._main.query_one("#log", RichLog)
        except Exception:  # before the log exists (the first banner)
            self._log_buffer.append(text)
            return
        width = log.scrollable_content_region.width - 1
        if width <= 10:  # before the first layout: the log's share of the screen (see CSS)
            width = self.size.width - 30 - 22 - 4
        for line in [*self._log_buffer, text]:
            for part in with_ranks(line, self.ranks).split("\n"):
                for row in fold(part, width if width > 10 else 0):
                    log.write(row)
        self._log_buffer.clear()

    # -- the game loop -------------------------------------------------------------------
    @property
    def waiting_for_next_deal(self) -> bool:
        return self.table.deal.is_over

    def advance(self) -> None:
        """Let the bots move (one per ``delay``) until a person must decide or the deal ends."""
        if self.delay <= 0:
            self.table.run_bots()
            self._after_moves()
            return
        self._bot_tick()

    def _bot_tick(self) -> None:
        turn = None if self.table.deal.is_over else self.table.bot_turn()
        if turn is None:
            self._busy = False
            self._after_moves()
            return
        self._busy = True
        self.refresh_all()
        seat, think = turn
        deal = self.table.deal
        moves = len(deal.moves)

        def work() -> None:
            action = think()  # a bot thinks in a worker thread: the screen stays alive
            self.call_from_thread(self._bot_done, deal, moves, seat, action)

        self.run_worker(work, thread=True, group="bot", exit_on_error=False)

    def _bot_done(self, deal: object, moves: int, seat: int, action: Action) -> None:
        table = self.table
        if table.deal is not deal or len(table.deal.moves) != moves:
            return  # the game moved on (quit, resume) while the bot thought
        table.play_for(seat, action)
        self.refresh_all()
        self.set_timer(self.delay, self._bot_tick)

    def _after_moves(self) -> None:
        table = self.table
        while table.notices:  # a bot program failed and another bot took its seat
            self._log_line("! " + self.t.text(table.notices.pop(0)))
        table.save()
        if table.deal.is_over:
            self.message = game_end_text(table, self.lang) if table.is_over else self.t("Press Enter for the next deal")
        else:
            self.message = ""
        self.cursor = 0
        self.hinted = None
        self.refresh_all()
        if table.is_over:
            self.show_sheet(final=True)

    def choices(self) -> list[Action]:
        if self.table.human_to_act is None or self._busy:
            return []
        return display_order(self.table.deal.legal_actions())

    # -- actions (keys) ------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        """Move the cursor; it stops at the first and the last choice (no wrapping round)."""
        n = len(self.choices())
        if n:
            self.cursor = max(0, min(n - 1, self.cursor + step))
            self.refresh_choices()

    def action_jump(self, where: int) -> None:
        n = len(self.choices())
        if n:
            self.cursor = where % n
            self.refresh_choices()

    def action_choose(self) -> None:
        table = self.table
        if self._busy:
            return
        if table.deal.is_over:
            if table.is_over:
                self.show_sheet(final=True)
                return
            table.next_deal()
            self.narrator.banner()
            self.message = ""
            self.cursor = 0
            self.refresh_all()
            self.advance()
            return
        options = self.choices()
        if not options:
            return
        action = options[min(self.cursor, len(options) - 1)]
        if table.deal.phase is Phase.DISCARD and action.is_card:
            self.mark(action)
            return
        self.play(action)

    def mark(self, card: Action) -> None:
        """The discard: a card is marked (or unmarked) and, once two are, a further Enter (or
        Space) discards them — a card sent is gone, so nothing goes before it is confirmed."""
        if len(self.marked) == 2:
            chosen, self.marked = self.marked, []
            seat = self.table.human_to_act
            try:
                for a in chosen:
                    self.table.act(a, seat)
            except PreferansError as e:
                self.message = self.t.text(e)
                self.refresh_all()
                return
            self.message = ""
            self.cursor = 0
            self.hinted = None
            self.refresh_all()
            self.advance()
            return
        if card in self.marked:
            self.marked.remove(card)
        else:
            self.marked.append(card)
        self.refresh_all()

    def play(self, action: Action | str) -> None:
        """Make the human's move (also used by tests and by typed input)."""
        table = self.table
        seat = table.human_to_act
        if seat is None:
            raise PreferansError("it is not your turn")
        try:
            table.act(action, seat)
        except PreferansError as e:
            self.message = self.t.text(e)
            self.refresh_all()
            return
        self.marked = []
        self.message = ""
        self.cursor = 0
        self.hinted = None
        self.refresh_all()
        self.advance()

    def action_sheet(self) -> None:
        self.show_sheet()

    def show_sheet(self, final: bool = False) -> None:
        p = self.table.pulka
        body = render_text(p.sheet, p.rules, p.settlement(), lang=self.lang)
        title = self.t("Final settlement (whists)") if final else self.t("Score sheet")
        if final:
            body = game_end_text(self.table, self.lang) + "\n\n" + body
        self.push_screen(TextScreen(title, body, "q / Esc"), self._after_final if final else None)

    def _after_final(self, _: None = None) -> None:
        self.exit_message = game_end_text(self.table, self.lang)
        self.exit(0)

    def action_last_trick(self) -> None:
        deal = self.table.deal
        done = deal.completed_tricks
        if not done:
            self.message = self.t("No trick has been played yet")
            self.refresh_prompt()
            return
        cards, winner = done[-1]
        body = Text()
        for s, c in cards:
            body.append(f"{self.narrator.name(s):<10}")
            body.append_text(card_text(c, ranks=self.ranks))
            body.append("\n")
        body.append(self.narrator.takes(winner) + "\n\n")
        body.append(self.t("Cards played: {cards}", cards=""), style="bold")
        body.append(self.narrator.cards(hand_text(played_mask(deal))))
        self.push_screen(TextScreen(self.t("Last trick"), body, "Esc"))

    def action_hint(self) -> None:
        """Ask the hinting bot in a worker thread (a thinking bot takes up to its time budget); its
        answer marks that choice and never moves the cursor."""
        if self.table.human_to_act is None or self._busy or self._hinting:
            return
        self._hinting = True
        self.message = self.t("Hint: the {level} bot is thinking…", level=self.t.p("level", self.table.hint_level))
        self.refresh_prompt()
        deal = self.table.deal
        moves = len(deal.moves)

        def work() -> None:
            h = self.table.hint()
            self.call_from_thread(self._show_hint, deal, moves, h)

        self.run_worker(work, thread=True, group="hint", exit_on_error=False)

    def _show_hint(self, deal: object, moves: int, h: Hint) -> None:
        self._hinting = False
        if self.table.deal is not deal or len(self.table.deal.moves) != moves:
            return  # the game moved on while the bot thought
        t = self.t
        name = action_name(h.action, self.lang)
        text = t("Hint ({level} bot): {action}", level=t.p("level", self.table.hint_level), action=name)
        why = hint_reason(h.why, t)
        if why:
            text += f" — {why}"
        log = text
        if h.values:
            best = sorted(h.values.items(), key=lambda kv: -kv[1])[:6]
            log += "\n" + t("expected score (whists): {values}", values=", ".join(
                f"{action_name(a, self.lang)} {v:+.2f}" for a, v in best))  # fmt: skip
        self._log_line(log)
        options = self.choices()
        self.hinted = h.action if h.action in options else None
        if self.hinted is not None and options[min(self.cursor, len(options) - 1)] != h.action:
            text += " " + t("(underlined; the cursor stays on {choice})",
                            choice=action_name(options[min(self.cursor, len(options) - 1)], self.lang))  # fmt: skip
        self.message = text
        self.refresh_all()

    def action_undo(self) -> None:
        table = self.table
        if self._busy:
            return
        if not table.practice:
            self.message = self.t("undo works in practice mode only (--practice)")
            self.refresh_prompt()
            return
        if not any(table.is_human(s) for s, _ in table.deal.moves):
            self.message = self.t("Nothing to take back: you have not moved in this deal yet")
            self.refresh_prompt()
            return
        try:
            undone = table.undo()
        except PreferansError as e:
            self.message = self.t.text(e)
            self.refresh_prompt()
            return
        self.narrator.resync()
        self.marked = []
        moves = ", ".join(f"{self.narrator.name(s)} {action_name(a, self.lang)}" for s, a in reversed(undone))
        self._log_line(self.t("Taken back: {moves}", moves=moves))
        self.message = ""
        self.cursor = 0
        self.hinted = None
        self.refresh_all()

    def action_auto(self) -> None:
        self.table.auto_single = not self.table.auto_single
        self.message = (self.t("auto-play of a single card: on") if self.table.auto_single
                        else self.t("auto-play of a single card: off"))  # fmt: skip
        self.refresh_prompt()
        if not self._busy and self.table.forced() is not None:
            self.advance()

    def action_type(self) -> None:
        """Type an action as in the plain mode (``AS``, ``пас``, ``7NT``); Enter plays it, Esc cancels."""
        if self.table.human_to_act is None or self._busy:
            return
        box = self._main.query_one("#typed", Input)
        box.add_class("on")
        box.value = ""
        box.focus()

    def action_cancel_typing(self) -> None:
        box = self._main.query_one("#typed", Input)
        if not box.has_class("on") and self.marked:  # Esc in the discard: choose the two cards again
            self.marked = []
            self.refresh_all()
            return
        box.remove_class("on")
        self.set_focus(None)

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here gets a one-line answer instead of silence."""
        if self.screen is not self._main or event.key in self.BOUND_KEYS or self.focused is not None:
            return
        if event.character is None or not event.character.isprintable() or event.key.startswith("ctrl"):
            return
        self.message = self.t("The key {key} does nothing here; ? lists the keys", key=event.character)
        self.refresh_prompt()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_cancel_typing()
        seat = self.table.human_to_act
        text = event.value.lstrip(":/").strip()  # the key that opened the line may arrive in it
        if seat is None or not text:
            return
        if text.split()[0].lower() in self.table.COMMANDS:
            try:  # issue 10: irregularities and claims, behind table options
                self.message = self.table.command(text, seat)
            except PreferansError as e:
                self.message = self.t.text(e)
            self.refresh_all()
            self.advance()
            return
        try:
            action = read_action(self.table.deal, text, self.lang)
        except PreferansError as e:
            self.message = self.t.text(e)
            self.refresh_prompt()
            return
        if self.table.deal.phase is Phase.DISCARD and action.is_card:
            self.mark(action)  # a typed card is marked like a chosen one
            return
        self.play(action)

    def action_theme_toggle(self) -> None:
        self.light = not self.light
        self.theme = "textual-light" if self.light else "textual-dark"

    def action_help(self) -> None:
        self.push_screen(TextScreen("?", self.help_text(), "Esc"))

    def help_text(self) -> str:
        t = self.t
        return "\n".join([
            t("←/→ (↑/↓, Home/End) choose among your legal cards or calls; the"),
            t("cursor stops at the ends.  Enter or Space plays the chosen one;"),
            t(": or / lets you type it instead (AS, pass, 7NT, шесть пик)."),
            t("Legal cards are bright, the others dim; ★ marks the declarer; the"),
            t("highlighted name is the player to act.  The discard: Enter marks"),
            t("two cards (▲), a third Enter discards them, Esc chooses again."),
            "",
            t("s  the score sheet (pool, mountain, whists) and the settlement"),
            t("l  the last trick and the cards played so far"),
            t("h  hint: the strong bot's choice, underlined (the cursor stays)"),
            t("u  take back your last action (practice mode, --practice)"),
            t("a  auto-play a forced single card on/off"),
            t("t  light / dark colours"),
            t("q  save and quit (go on with: preferans play --resume FILE)"),
            t("The letter keys work on the Russian layout too (ы д р г ф е й)."),
        ])  # fmt: skip

    def action_quit_game(self) -> None:
        table = self.table
        target = table.save_path or self.quit_save
        if target is not None and not table.is_over:
            table.save(target)
            self.exit_message = (self.t("Game saved to {path}", path=target) + "\n"
                                 + self.t("Resume with: preferans play --resume {path}", path=target))  # fmt: skip
        self.exit(0)

    # -- drawing -------------------------------------------------------------------------
    def refresh_all(self) -> None:
        self.refresh_status()
        self.refresh_seats()
        self.refresh_trick()
        self.refresh_prompt()
        self.refresh_choices()

    def refresh_status(self) -> None:
        deal = self.table.deal
        names = [self.narrator.name(s) for s in range(deal.seats)]
        parts = [self.narrator.header()]
        c = contract_text(deal, names, self.lang, self.narrator.you)
        if c:
            parts.append(c)
        self._widget("status").update(" · ".join(parts))

    def _last_call(self, seat: int) -> str:
        for s, a in reversed(self.table.deal.moves):
            if s == seat and not Action(a).is_card:
                return action_name(Action(a), self.lang)
        return ""

    def _panel_width(self, name: str, default: int) -> int:
        try:
            w = self._widget(name).content_size.width
        except Exception:
            w = 0
        return w if w > 0 else default

    def refresh_seats(self) -> None:
        deal, t = self.table.deal, self.t
        known = deal.observation(self.viewer).known_hands  # only what your seat may see
        width = self._panel_width("seats", 28)
        out = Text()
        dummy = dummy_seat(deal.players)
        for s in range(deal.seats):  # гусарик: the dummy is a third seat (rules.md §16)
            name = self.narrator.name(s)
            if deal.players == 4 and s == deal.dealer:
                # The dealer sits out (Kodeks 3.2.2); he has tricks only from the all-pass talon (3.7.6.1).
                you = s == self.narrator.you
                sits = t("You deal and sit out") if you else t("{name} deals and sits out", name=name)
                out.append(sits[:width], style="dim")
                if (deal.phase is Phase.PLAY or deal.is_over) and deal.tricks_won[s]:
                    out.append(f" {deal.tricks_won[s]}", style="bold")
                out.append("\n")
                continue
            turn = deal.to_act if s != dummy else deal.to_play  # the whister plays the dummy's cards
            style = "reverse" if turn == s and not deal.is_over else "bold" if s != dummy else "dim"
            out.append(f"{name[:9]:<9}", style=style)
            out.append(" ★ " if deal.declarer == s else "   ", style="bold")
            out.append(f"{self._last_call(s)[:11]:<11}")
            if (deal.phase is Phase.PLAY or deal.is_over) and (s != dummy or deal.declarer is not None):
                out.append(f"{deal.tricks_won[s]:>2}", style="bold")
            out.append("\n")
            if s == dummy and not known.get(s):
                out.append("  " + t("face down")[: width - 2] + "\n", style="dim")  # until the whister lays it down
            if s != self.viewer and known.get(s):
                for line in hand_lines(known[s], width - 2):
                    out.append("  ")
                    out.append_text(self._groups_text(line, set(), None, dim_all=False))
                    out.append("\n")
        if deal.players in (2, 3):
            out.append(f"\n{t('dealer')}: {self.narrator.name(deal.dealer)}", style="dim")
        self._widget("seats").update(out)

    def refresh_trick(self) -> None:
        deal, t = self.table.deal, self.t
        out = Text()
        if deal.phase is Phase.PLAY or deal.is_over:
            done = deal.completed_tricks
            if deal.trick or not done:
                out.append(t("Trick {n}", n=len(done) + 1) + "\n", style="bold underline")
                shown, winner = deal.trick, None
            else:  # the trick just taken stays in view until the next card
                shown, winner = done[-1]
                out.append(t("Trick {n}", n=len(done)) + "\n", style="bold underline")
            for s, c in shown:
                out.append(f"{self.narrator.name(s)[:8]:<9}", style="bold" if s == winner else "")
                out.append_text(card_text(c, "dim" if winner is not None and s != winner else "", self.ranks))
                out.append("\n")
            if winner is not None:
                out.append(f"→ {self.narrator.name(winner)}\n", style="bold")
            trump = deal.trump
            out.append("\n")
            out.append(t("trumps {suit}", suit="♠♣♦♥"[trump]) if trump is not None else t("no trumps"), style="dim")
            out.append("\n")
        if deal.talon_shown:
            out.append(f"\n{t('Talon')}: ")
            for c in deal.talon[: deal.talon_shown]:
                out.append_text(card_text(c, ranks=self.ranks))
                out.append(" ")
        elif deal.phase is Phase.BIDDING:
            out.append(f"{t('Talon')}: ", style="dim")
            out.append("[?] [?]", style="dim")
        self._widget("trick").update(out)

    def refresh_prompt(self) -> None:
        deal, t = self.table.deal, self.t
        seat = self.table.human_to_act
        if self.message:
            text = self.message
        elif seat is None:
            text = "" if deal.is_over else t("{name} is thinking…", name=self.narrator.name(deal.to_act or 0))
        elif deal.phase is Phase.DISCARD and len(self.marked) == 2:
            text = t("Discard {cards}? Enter discards them, Esc chooses again",
                     cards=" ".join(str(a) for a in self.marked))  # fmt: skip
        elif deal.phase is Phase.DISCARD and self.marked:
            text = t("Discard: {card} and one more card (Enter marks it, Esc clears)", card=str(self.marked[0]))
        elif deal.phase is Phase.DISCARD:
            text = t("Discard two cards: Enter marks a card")
        elif deal.phase is Phase.PLAY and deal.to_play is not None and deal.to_play != seat:
            text = self.narrator.playing_for(deal.to_play)
        else:
            text = t.p("prompt", deal.phase.value)
        self._widget("prompt").update(Text(self.narrator.cards(text)))

    def _groups_text(self, groups: list[list[Card]], legal: set[int], cursor: int | None,
                     dim_all: bool = True) -> Text:  # fmt: skip
        out = Text()
        marked = {int(a) for a in self.marked}  # the discard chosen so far: ▲ before each
        for k, group in enumerate(groups):
            if k:
                out.append("  ")
            for i, c in enumerate(group):
                if i:
                    out.append(" ")
                if c == cursor:
                    style = "reverse"
                elif int(c) in marked:
                    style = "bold"
                elif c in legal or not dim_all:
                    style = ""
                else:
                    style = "dim"
                if self.hinted is not None and int(c) == int(self.hinted):
                    style = (style + " " + _HINT).strip()
                if int(c) in marked:
                    out.append("▲", style="bold")
                shown = rank_text(c, self.ranks)
                out.append_text(Text(shown, style=style) if style == "dim" else card_text(c, style, self.ranks))
        return out

    def refresh_choices(self) -> None:
        deal, t = self.table.deal, self.t
        self._widget("keys").update(Text(t("←→ ⏎ play  s sheet  l last  h hint  u undo  a auto  ? help  q quit")))
        if deal.is_over:
            score = self.table.scores[-1] if self.table.scores else None
            names = [self.narrator.name(s) for s in range(deal.seats)]
            lines = result_text(deal.result, score, names, self.lang)
            width = max(20, self.size.width - 2)
            self._widget("hand").update(Text(lines[0], style="bold"))
            rest = [row for line in lines[1:] for row in fold(line, width, " · ")]
            self._widget("calls").update(Text("\n".join(rest[:3])))
            return
        seat = self.table.human_to_act
        options = self.choices()
        if options:
            self.cursor = min(self.cursor, len(options) - 1)
        chosen = options[self.cursor] if options else None
        cards = [a for a in options if a.is_card]
        calls = [a for a in options if not a.is_card]
        if seat is None:
            seat = self.viewer
        play_from = deal.to_play if deal.phase is Phase.PLAY and deal.to_play is not None else seat
        legal = {int(a) for a in cards}
        cursor = int(chosen) if chosen is not None and chosen.is_card else None
        label = t("Your hand") if play_from == self.viewer else self.narrator.hand_label(play_from)
        width = max(20, self.size.width - 2)
        hand = Text(f"{label}: ", style="bold")
        rows = hand_lines(deal.hands[play_from], width, first=len(label) + 2)
        for i, row in enumerate(rows[:2]):
            if i:
                hand.append("\n")
            hand.append_text(self._groups_text(row, legal, cursor, dim_all=bool(cards)))
        if play_from != seat and len(rows) < 2:
            hand.append("\n")
            hand.append(f"({t('Your hand')}: {self.narrator.cards(hand_text(deal.hands[seat]))})", style="dim")
        self._widget("hand").update(hand)
        self._widget("calls").update(self._calls_rows(calls, chosen))

    def _calls_rows(self, calls: list[Action], chosen: Action | None, rows: int = 3) -> Text:
        """The legal calls wrapped to the width; when they need more than ``rows`` lines (dark
        calls double the list), the lines around the cursor are shown with ``…`` marks."""
        width = max(20, self.size.width - 6)
        lines: list[list[Action]] = [[]]
        used = 0
        for a in calls:
            w = len(action_name(a, self.lang)) + 3
            if used + w > width and lines[-1]:
                lines.append([])
                used = 0
            lines[-1].append(a)
            used += w
        at = next((i for i, line in enumerate(lines) if chosen in line), 0)
        first = min(max(0, at - rows // 2), max(0, len(lines) - rows))
        out = Text()
        for i in range(first, min(len(lines), first + rows)):
            if i > first:
                out.append("\n")
            for a in lines[i]:
                style = "reverse" if a == chosen else "bold"
                if a == self.hinted:
                    style += " " + _HINT
                out.append(f" {action_name(a, self.lang)} ", style=style)
                out.append(" ")
            if i == first and first > 0:
                out.append("↑…", style="dim")
            if i == first + rows - 1 and i < len(lines) - 1:
                out.append("↓…", style="dim")
        return out
