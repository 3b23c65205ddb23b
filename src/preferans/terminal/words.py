"""What the terminal says and reads, in English or Russian: action names, typed calls, results.

Shared by the plain line mode and the full-screen interface, so both speak
alike.  The words themselves are in the message catalogs
(:mod:`preferans.i18n`); this module puts them together for a deal and reads
back what a person types — the listed names in either language, the engine's
text (``AS``, ``7NT``) and the spoken forms of the table (``шесть пик``,
``семь червей``, ``раз``, ``трефы мои``, seed 002 p.16–19).

>>> from preferans.actions import Action
>>> action_name(Action.parse("here"), "ru"), action_name(Action.parse("7NT", bid=True), "ru")
('здесь', '7БК')
>>> action_name(Action.parse("dark 6♠"), "en")
'dark 6♠'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from ..actions import HERE, PASS, Action, Contract
from ..cards import Card, format_hand
from ..engine.deal import Deal, Phase
from ..engine.result import DealKind, DealResult
from ..errors import InputError, PreferansError
from ..i18n import LANGS, Translator, call_name
from ..rules import Rules
from ..scoring import DealScore
from ..scoring.reasons import deal_story, ending_reason
from ..scoring.text_sheet import entry_text
from ..seats import dummy_seat
from ..table import Table

__all__ = [
    "LANGS",
    "InputError",
    "action_name",
    "contract_text",
    "display_order",
    "game_end_text",
    "hand_text",
    "hint_lines",
    "hint_reason",
    "legal_names",
    "read_action",
    "result_text",
    "spoken_action",
]  # fmt: skip



def action_name(action: int, lang: str = "en") -> str:
    """The action as the player reads it (and may type it back)."""
    return call_name(str(Action(action)), lang)


def display_order(actions: Sequence[int]) -> list[Action]:
    """Legal actions as a player reads them: cards in hand order (♠ ♣ ♦ ♥, high to low), then calls
    in the engine's order (pass first, then the bids upwards)."""
    cards = sorted((Action(a) for a in actions if a < 32), key=lambda a: (a >> 3, -(a & 7)))
    return cards + [Action(a) for a in actions if a >= 32]


def legal_names(deal: Deal, lang: str = "en") -> list[str]:
    return [action_name(a, lang) for a in display_order(deal.legal_actions())]


def _key(text: str) -> str:
    return " ".join(re.sub(r"[!.,;«»\"']", " ", text.strip().lower().replace("ё", "е")).split())


# -- spoken forms (seed 002 p.16–19: «Раз», «Пики», «Первые», «Два», «Семь треф мои», «Мои») -------------

_LEVELS = {
    "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    **{str(n): n for n in range(6, 11)},
}  # fmt: skip
_STRAINS = {
    **dict.fromkeys(("пик", "пики", "пика", "пиках", "spades", "spade", "♠"), 0),
    **dict.fromkeys(("треф", "трефы", "трефа", "трефах", "крести", "крестей", "кресты", "clubs", "club", "♣"), 1),
    **dict.fromkeys(("бубен", "бубны", "бубна", "бубнах", "буби", "бубей", "diamonds", "diamond", "♦"), 2),
    **dict.fromkeys(("червей", "черви", "червы", "черва", "червах", "черв", "hearts", "heart", "♥"), 3),
    **dict.fromkeys(("бк", "nt", "notrump", "notrumps", "бескозырка"), 4),
}  # fmt: skip
_NO_TRUMP_WORDS = ("без козыря", "без козырей", "no trump", "no trumps", "no-trump", "no-trumps")
_STEPS = {"раз": 0, "первые": 0, "два": 1, "вторые": 1}  # the first and second steps of the ladder: 6♠, 6♣
_WORDS = {
    "пасую": "pass", "pass": "pass", "вистую": "whist", "полвиста": "half-whist", "играю": "play",
    "лежа": "open", "в светлую": "open", "открыто": "open", "в открытую": "open", "ложимся": "open",
    "стоя": "closed", "закрыто": "closed", "в закрытую": "closed",
    "прикуп": "talon", "беру прикуп": "talon", "согласен": "accept", "отказ": "refuse", "не согласен": "refuse",
    "за своими": "quota", "без трех": "concede-3", "без всех": "concede-all",
}  # fmt: skip
_RANKS = {
    "туз": 7, "король": 6, "дама": 5, "валет": 4, "десятка": 3, "девятка": 2, "восьмерка": 1, "семерка": 0,
    "ace": 7, "king": 6, "queen": 5, "jack": 4, "ten": 3, "nine": 2, "eight": 1, "seven": 0,
}  # fmt: skip


def _bid_of(deal: Deal, contract: Contract) -> Action | None:
    try:
        return Action.bid(contract)
    except PreferansError:
        return None


def spoken_action(deal: Deal, text: str, lang: str = "en") -> Action | None:
    """The action a spoken call names in this deal's phase, or ``None`` (not a spoken form).

    Levels and suits in words or figures (``шесть пик``, ``7 бубен``, ``seven hearts``,
    ``8 без козыря``), ``без прикупа``, the seed's «раз» / «первые» (6♠) and «два» (6♣), a
    bare suit for the lowest legal bid in it (``пики``), «мои» / ``здесь`` after a bid
    (``трефы мои``, ``семь треф мои``: the bid held, seed 002 p.19), and the cards as words
    (``туз пик``, ``дама червей``).  Raises :class:`InputError` when the words name a bid
    that cannot be held.
    """
    key = _key(text)
    if key in _WORDS:
        return Action.parse(_WORDS[key], bid=True)
    phase = deal.phase
    bidding = phase in (Phase.BIDDING, Phase.DECLARE)
    words = key.split()
    if not words:
        return None
    dark = False
    for w in ("втемную", "dark"):
        if w in words:
            words.remove(w)
            dark = True
    hold = False
    if words and words[-1] in ("мои", "здесь", "mine", "here"):
        words.pop()
        hold = True
    rest = " ".join(words)
    no_talon = False
    for suffix in (" без прикупа", " without the talon", " without talon"):
        if rest.endswith(suffix):
            rest, no_talon = rest[: -len(suffix)], True
    for nt in _NO_TRUMP_WORDS:
        rest = rest.replace(nt, "nt")
    words = rest.split()
    level: int | None = None
    strain: int | None = None
    if len(words) == 1 and words[0] in _STEPS and bidding and not hold:
        level, strain = 6, _STEPS[words[0]]
    elif len(words) == 1 and re.fullmatch(r"(6|7|8|9|10)(бк|nt)", words[0]):
        level, strain = int(words[0][:-2]), 4
    elif len(words) == 2 and words[0] in _LEVELS and words[1] in _STRAINS:
        level, strain = _LEVELS[words[0]], _STRAINS[words[1]]
    elif len(words) == 1 and words[0] in _STRAINS:
        strain = _STRAINS[words[0]]
    elif len(words) == 1 and words[0] in _LEVELS and no_talon:
        level = _LEVELS[words[0]]
    elif not hold and len(words) == 2 and words[0] in _RANKS and words[1] in _STRAINS and _STRAINS[words[1]] < 4:
        return Action.from_card(Card(_STRAINS[words[1]] * 8 + _RANKS[words[0]]))
    elif not words and hold:
        return HERE
    else:
        return None
    if hold:
        best = deal.highest_bid
        if best is None or best.level == 0 or (strain is not None and best.strain != strain) or (
            level is not None and best.level != level
        ):
            t = Translator(lang)
            if best is None or best.level == 0:
                raise InputError(t("«here» holds a bid, and there is none to hold yet"))
            named = Contract(level or best.level, best.strain if strain is None else strain)
            said, held = action_name(Action.bid(named), lang), action_name(Action.bid(best), lang)
            raise InputError(t("«here» holds the current bid {held}, not {said}", held=held, said=said))
        return HERE
    if not bidding:
        return None
    if level is None:  # a bare suit (or «без прикупа» with a level): the lowest legal bid that fits
        for a in deal.legal_actions():
            c = Action(a).contract
            if c is None or Action(a).is_dark != dark or c.level == 0:
                continue
            if (strain is None or c.strain == strain) and c.without_talon == no_talon:
                return Action(a)
        return None
    try:
        contract = Contract(level, strain if strain is not None else 4, without_talon=no_talon)
        return Action.bid(contract, dark=dark)
    except PreferansError:
        return None


def _suggestion(key: str, names: dict[str, Action]) -> str | None:
    """A close legal name for a typo, only where the guess is likely: a word of three or more
    letters against the calls' words; a text with figures (``5h``) is no misspelt card or bid."""
    if len(key) < 3 or not key.replace(" ", "").replace("-", "").isalpha():
        return None
    words = [k for k in names if len(k) >= 3 and k.replace(" ", "").replace("-", "").isalpha()]
    guess = difflib.get_close_matches(key, words, n=1, cutoff=0.7)
    return guess[0] if guess else None


def _shape_hint(key: str, t: Translator) -> str:
    """Why a short text names nothing: a level outside 6–10, an unknown suit letter."""
    m = re.fullmatch(r"(\d+)\s*([a-zа-я♠♣♦♥]+)?", key)
    if m and not 6 <= int(m.group(1)) <= 10:
        return t("games are played at levels 6 to 10 (6♠ … 10NT); cards run from 7 to the ace")
    return ""


def read_action(deal: Deal, text: str, lang: str = "en") -> Action:
    """The legal action a person typed: its listed name in either language, any engine text,
    or a spoken form (:func:`spoken_action`).

    Raises :class:`InputError` (unreadable, with a sensible guess) or the engine's
    :class:`~preferans.errors.IllegalAction` (readable but not allowed now,
    with the rule).
    """
    t = Translator(lang)
    legal = display_order(deal.legal_actions())
    names: dict[str, Action] = {}
    for a in legal:
        for form in (action_name(a, "ru"), action_name(a, "en"), a.ascii(), str(a)):
            names.setdefault(_key(form), a)
    key = _key(text)
    choices = ", ".join(action_name(a, lang) for a in legal)
    if not key:
        raise InputError(t("choose one of: {choices}", choices=choices))
    if key in names:
        return names[key]
    action: Action | None = spoken_action(deal, text, lang)
    if action is None:
        try:
            action = Action(deal.parse_action(text))
        except PreferansError:
            msg = t("cannot read {text!r}", text=text.strip())
            guess = _suggestion(key, names)
            hint = _shape_hint(key, t)
            if guess:
                msg += "; " + t("did you mean {guess}?", guess=action_name(names[guess], lang))
            elif hint:
                msg += "; " + hint
            raise InputError(msg + "; " + t("choose one of: {choices}", choices=choices)) from None
    if action == PASS and deal.phase is not Phase.BIDDING and PASS not in legal:
        raise InputError(t("{action} is not allowed now", action=action_name(action, lang)) + "; "
                         + t("choose one of: {choices}", choices=choices))  # fmt: skip
    deal.verify(action)  # raises IllegalAction with the rule's reason
    return action


def hand_text(mask: int) -> str:
    """A hand grouped by suit, high to low: ``♠A 10 7 ♣K``."""
    return format_hand(mask, grouped=True)


def contract_text(deal: Deal, names: Sequence[str], lang: str = "en", you: int | None = None) -> str:
    """``Left plays 7♠`` or the all-pass, for the status line."""
    t = Translator(lang)
    if deal.kind is DealKind.ALL_PASS or (deal.declarer is None and deal.phase is Phase.PLAY):
        return t("All-pass")
    c = deal.contract or deal.highest_bid
    if deal.declarer is None or c is None:
        return ""
    strain = contract_name(c, lang)
    if deal.declarer == you:
        return t("You play {contract}", contract=strain)
    return t("{name} plays {contract}", name=names[deal.declarer], contract=strain)


def contract_name(c: Contract, lang: str = "en") -> str:
    """A contract as the player reads it: its bid's name, ``… totus`` after the dedicated totus bid."""
    t = Translator(lang)
    if c.level and c.without_talon:  # declared after a bid «без прикупа»: the strain and the words (9♥ без прикупа)
        name = t("{contract} without the talon", contract=action_name(Action.bid(Contract(c.level, c.strain)), lang))
    else:
        name = action_name(Action.bid(Contract(c.level, c.strain, c.without_talon)), lang)
    return t("{contract} totus", contract=name) if getattr(c, "totus", False) else name


def result_text(result: DealResult, score: DealScore | None, names: Sequence[str], lang: str = "en", *,
                rules: Rules | None = None) -> list[str]:  # fmt: skip
    """The outcome of a deal and what it wrote on the sheet, a few lines.

    With ``rules`` the deal explains itself (:mod:`preferans.scoring.reasons`): why it ended
    without play when it did, and a line per sheet line saying where it comes from; without
    them the sheet lines are listed in one short line (the full-screen result area).
    """
    t = Translator(lang)
    # The sheet's all-pass label packs the tricks as ``A7 B2 C1``; the next line says them in words.
    if score is None or result.kind is DealKind.ALL_PASS:
        label = t.p("deal kind", result.kind.value)
    else:
        label = t.text(score.label)
    lines = [t("Result: {label}", label=label)]
    ending = ending_reason(result, rules, score.raspas_step if score else 0) if rules is not None else None
    if ending is not None:
        lines.append(t.text(ending))
    if result.tricks:
        # An all-pass is played by the active hands only: гусарик's dummy is out (docs/rules.md §16).
        out = dummy_seat(result.players) if result.kind is DealKind.ALL_PASS else None
        # «Аня 7», or «Бот 2: 7» where a name ends in a figure or a space (so «Бот 2 7» is not misread).
        def told(seat: int, n: int) -> str:
            return f"{names[seat]}: {n}" if names[seat][-1:].isdigit() else f"{names[seat]} {n}"

        parts = [told(s, n) for s, n in sorted(result.tricks.items()) if s != out]
        if result.players == 4 and result.dealer_tricks:
            parts.append(told(result.dealer, result.dealer_tricks))
        lines.append(t("Tricks: {tricks}", tricks=", ".join(parts)))
    if score is not None and rules is not None and score.entries:
        lines.append(t("Written:"))
        story = deal_story(result, score, rules, names)
        lines.extend("  " + t.text(line) for line in story[len(story) - len(score.entries):])
    elif score is not None:
        written = " · ".join(entry_text(e, tuple(names), lang) for e in score.entries) or t("nothing")
        lines.append(t("Written: {entries}", entries=written))
    return lines


def played_mask(deal: Deal) -> int:
    """Every card played to a trick so far (completed tricks and the current one)."""
    m = 0
    for cards, _ in deal.completed_tricks:
        for _, c in cards:
            m |= 1 << c
    for _, c in deal.trick:
        m |= 1 << c
    return m


def game_end_text(table: Table, lang: str) -> str:
    """How the game ended: the pulka closed, or stopped after ``--deals N`` or by agreement."""
    t = Translator(lang)
    played = len(table.pulka.results)
    if table.end_reason == "closed":
        return t("The pulka is over.")
    if table.end_reason == "agreement":
        return t.n("The game was ended by agreement after {n} deal.",
                   "The game was ended by agreement after {n} deals.", played)  # fmt: skip
    return t.n("The game stopped after {n} deal (--deals); the pulka is not finished.",
               "The game stopped after {n} deals (--deals); the pulka is not finished.", played)  # fmt: skip


def hint_lines(table: Table, t: Translator) -> list[str]:
    """The hint in words: the bot's choice, why, and its expected score per option."""
    h = table.hint()
    head = t("Hint ({level} bot): {action}", level=t.p("level", table.hint_level),
             action=action_name(h.action, t.lang))  # fmt: skip
    why = hint_reason(h.why, t)
    lines = [head + (f" — {why}" if why else "")]
    if h.values:
        best = sorted(h.values.items(), key=lambda kv: -kv[1])[:8]
        values = ", ".join(f"{action_name(a, t.lang)} {v:+.2f}" for a, v in best)
        lines.append("  " + t("expected score (whists): {values}", values=values))
    return lines


def hint_reason(why: tuple[str, str], t: Translator) -> str:
    """A hint's reason (:attr:`preferans.table.Hint.why`) in the reader's language."""
    key, arg = why
    if key == "estimates":
        if t.lang != "en":  # ♠5.0 … NT3.0 → ♠5,0 … БК3,0: the strain's name and the decimal comma
            arg = re.sub(r"(\d)\.(\d)", r"\1,\2", arg.replace("NT", t.p("strain", "NT")))
        return t("expected tricks by strain: {estimates}", estimates=arg)
    if key == "declarer":
        return t("the declarer should take about {tricks} tricks", tricks=arg)
    if key == "samples":
        n = int(arg) if arg.isdigit() else 0
        return t.n("best on average over {n} layout of the unseen cards, each solved exactly",
                   "best on average over {n} layouts of the unseen cards, each solved exactly", n)  # fmt: skip
    if key == "exact":
        return t("every card is in view: solved exactly")
    if key == "choice":
        return t("the {level} bot's choice", level=t.p("level", arg))
    if key == "bot":
        return arg
    return ""
