"""What the terminal says, in English or Russian: action names, prompts, moves, results.

Shared by the plain line mode and the full-screen interface, so both speak
alike.  Russian names are the table's own words (пас, вист, здесь, мизер, …)
and read back as input.

>>> from preferans.actions import Action
>>> action_name(Action.parse("here"), "ru"), action_name(Action.parse("7NT", bid=True), "ru")
('здесь', '7БК')
>>> action_name(Action.parse("dark 6♠"), "en")
'dark 6♠'
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from ..actions import Action
from ..cards import format_hand
from ..engine.deal import Deal, Phase
from ..engine.result import DealKind, DealResult
from ..errors import PreferansError
from ..scoring import DealScore
from ..scoring.text_sheet import entry_text

__all__ = [
    "LANGS", "InputError", "T", "action_name", "contract_text", "display_order", "hand_text", "legal_names",
    "read_action", "result_text",
]  # fmt: skip

LANGS = ("en", "ru")


class InputError(PreferansError):
    """Typed input that names no legal action; the message says what would be right."""


_RU_CALLS = {
    "pass": "пас",
    "here": "здесь",
    "talon": "прикуп",
    "dark pass": "пас втёмную",
    "whist": "вист",
    "half-whist": "полвиста",
    "open": "лёжа",
    "closed": "стоя",
    "invite": "приглашаю",
    "accept": "согласен",
    "refuse": "отказ",
    "quota": "за своими",
    "play": "играю",
    "concede-3": "без трёх",
    "concede-all": "без всех",
    "misere": "мизер",
    "misere-no-talon": "мизер без прикупа",
}

# Every string the player reads, by key: (English, Russian).
_STRINGS: dict[str, tuple[str, str]] = {
    "title": ("Preferans", "Преферанс"),
    "deal_header": (
        "Deal {n} — {rules}, pool {pool} — dealer: {dealer}",
        "Сдача {n} — {rules}, пуля {pool} — сдаёт: {dealer}",
    ),
    "min_level": ("after the all-pass the lowest game is {level}", "после распасов игра не ниже {level}"),
    "your_hand": ("Your hand", "Ваши карты"),
    "hand_of": ("{name}'s hand", "Карты: {name}"),
    "sits_out": ("{name} deals and sits out", "{name} сдаёт и не играет"),
    "talon": ("Talon", "Прикуп"),
    "talon_shown": ("Talon: {cards}", "Прикуп: {cards}"),
    "discards": ("{name} discards a card", "{name} сносит карту"),
    "discarded": ("{name} discards {card}", "{name} сносит {card}"),
    "you_discard": ("You discard {card}", "Вы сносите {card}"),
    "you_play": ("You play {contract}", "Вы играете {contract}"),
    "lies_down": ("{name} lies down: {cards}", "{name} открывает карты: {cards}"),
    "takes_trick": ("{name} takes the trick", "{name} берёт взятку"),
    "you_take_trick": ("you take the trick", "ваша взятка"),
    "talon_leads": ("the talon card {card} leads", "карта прикупа {card} задаёт масть"),
    "led": ("{name} leads {card}", "{name} ходит {card}"),
    "plays": ("{name} plays {card}", "{name}: {card}"),
    "says": ("{name}: {action}", "{name}: {action}"),
    "prompt.bidding": ("Your call", "Ваша заявка"),
    "prompt.misere_invite": ("Misère «пополам» invitation", "Приглашение на мизер пополам"),
    "prompt.discard": ("Discard two cards ({k} of 2)", "Снесите две карты ({k} из 2)"),
    "prompt.declare": ("Name your contract", "Назначьте игру"),
    "prompt.whist": ("Whist or pass", "Вист или пас"),
    "prompt.concession": ("Play on or concede", "Играть или сдаться"),
    "prompt.defence": ("Play open or closed", "Играть лёжа или стоя"),
    "prompt.quota_answer": ("Allow «за своими»?", "Согласны «за своими»?"),
    "prompt.play": ("Your card", "Ваш ход"),
    "prompt.play_for": ("Card from {name}'s hand", "Ход из карт: {name}"),
    "legal": ("choose", "варианты"),
    "contract": ("{name} plays {contract}", "{name} играет {contract}"),
    "all_pass": ("All pass: распасовка", "Распасовка"),
    "tricks": ("tricks", "взятки"),
    "trick": ("Trick {n}", "Взятка {n}"),
    "last_trick": ("Last trick", "Последняя взятка"),
    "no_last_trick": ("No trick has been played yet", "Взяток ещё не было"),
    "played": ("Cards played", "Вышли карты"),
    "trumps": ("trumps {suit}", "козыри {suit}"),
    "no_trumps": ("no trumps", "без козыря"),
    "result": ("Result", "Итог"),
    "written": ("Written", "Записано"),
    "sheet": ("Score sheet", "Пулька"),
    "settlement": ("Final settlement (whists)", "Итоговый расчёт (висты)"),
    "game_over": ("The pulka is over.", "Пулька окончена."),
    "next_deal": ("Press Enter for the next deal", "Enter — следующая сдача"),
    "hint": ("Hint ({level} bot): {action}", "Подсказка (бот {level}): {action}"),
    "hint_values": ("expected score", "ожидание"),
    "why.estimates": ("expected tricks by strain: {}", "ожидаемые взятки по мастям: {}"),
    "why.declarer": ("the declarer should take about {} tricks", "разыгрывающий возьмёт около {} взяток"),
    "why.samples": (
        "best on average over {} layouts of the unseen cards, each solved exactly",
        "лучший в среднем по {} раскладам невидимых карт, каждый решён точно",
    ),
    "why.choice": ("the {} bot's choice", "выбор бота {}"),
    "why.bot": ("{}", "{}"),
    "undone": ("Taken back: {moves}", "Отменено: {moves}"),
    "saved": ("Game saved to {path}", "Игра сохранена в {path}"),
    "resume_with": ("Resume with: preferans play --resume {path}", "Продолжить: preferans play --resume {path}"),
    "bad_input": ("cannot read {text!r}", "не понимаю {text!r}"),
    "did_you_mean": ("did you mean {guess}?", "может быть, {guess}?"),
    "not_legal": ("{action} is not allowed now", "{action} сейчас нельзя"),
    "choose_from": ("choose one of: {choices}", "выберите: {choices}"),
    "waiting": ("{name} is thinking…", "{name} думает…"),
    "you": ("You", "Вы"),
    "seat": ("seat", "место"),
    "totals": ("pool: {pool}; mountain: {mountain}", "пуля: {pool}; гора: {mountain}"),
    "auto_on": ("auto-play of a single card: on", "автоход единственной картой: вкл"),
    "auto_off": ("auto-play of a single card: off", "автоход единственной картой: выкл"),
    "undo_practice": (
        "undo works in practice mode only (--practice)",
        "отмена хода — только в режиме тренировки (--practice)",
    ),
    "dealer": ("dealer", "сдаёт"),
    "type_here": (
        "type a card or call (AS, pass, 7NT), Enter to play, Esc to cancel",
        "карта или заявка (AS, пас, 7БК), Enter — ход, Esc — отмена",
    ),
    "tui_keys": (
        "←→ ⏎ play  s sheet  l last  h hint  u undo  a auto  t theme  ? help  q quit",
        "←→ ⏎ ход  s пуля  l взятка  h совет  u отмена  a авто  ? помощь  q выход",
    ),
    "tui_help": (
        "←/→ (or ↑/↓, Home/End) move between your legal cards or calls; Enter or Space plays the\n"
        "chosen one; : or / lets you type it instead (AS, pass, 7NT, пас).\n"
        "Legal cards are bright, the others dimmed; ★ marks the declarer; a highlighted\n"
        "name is the player to act.\n\n"
        "s  the score sheet (pool, mountain, whists) and the settlement so far\n"
        "l  the last trick\n"
        "h  hint: what the strong bot would do here (its values per option, when it gives them)\n"
        "u  undo your last action (practice mode, --practice)\n"
        "a  auto-play a forced single card on/off\n"
        "t  light / dark colours\n"
        "q  save and quit (resume with preferans play --resume FILE)",
        "←/→ (или ↑/↓, Home/End) — выбор карты или заявки; Enter или пробел — сделать ход;\n"
        ": или / — ввести ход текстом (AS, пас, 7БК).\n"
        "Разрешённые карты яркие, остальные тусклые; ★ — разыгрывающий; выделено имя того, чей ход.\n\n"
        "s  пулька (пуля, гора, висты) и расчёт на сейчас\n"
        "l  последняя взятка\n"
        "h  подсказка: что сделал бы сильный бот (и его оценки вариантов)\n"
        "u  отменить свой последний ход (тренировка, --practice)\n"
        "a  автоход единственной картой вкл/выкл\n"
        "t  светлая / тёмная тема\n"
        "q  сохранить и выйти (продолжить: preferans play --resume ФАЙЛ)",
    ),
    "commands": (
        "Commands: a card or call as listed (also 'AS', 'пас', 'вист'); hand, trick, last, sheet, hint, "
        "undo, auto, help, quit.  With the table options claims / irregularity_reports: 'claim N', "
        "'claim rest', 'report talon-seen|talon-exposed|talon-taken|misdeal WHO', 'report out-of-turn WHO CALL'.",
        "Команды: карта или заявка из списка (также 'AS', 'пас', 'вист'); hand, trick, last, sheet, hint, "
        "undo, auto, help, quit (выход).  С опциями claims / irregularity_reports: 'заявка N', "
        "'заявка все', 'нарушение talon-seen|talon-exposed|talon-taken|misdeal КТО', "
        "'нарушение out-of-turn КТО ЗАЯВКА'.",
    ),
}


class T:
    """The strings of one language: ``T("ru")("your_hand")``."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in LANGS:
            raise PreferansError(f"lang: choose en or ru, not {lang!r}")
        self.lang = lang
        self._i = LANGS.index(lang)

    def __call__(self, key: str, **kw: object) -> str:
        return _STRINGS[key][self._i].format(**kw)

    def action(self, action: Action) -> str:
        return action_name(action, self.lang)

    def why(self, why: tuple[str, str]) -> str:
        """A hint's reason in this language (see :class:`preferans.table.Hint`)."""
        key, arg = why
        return _STRINGS["why." + key][self._i].format(arg) if key else ""


def action_name(action: Action, lang: str = "en") -> str:
    """The action as the player reads it (and may type it back)."""
    action = Action(action)  # legal cards may come as Card
    text = str(action)
    if lang != "ru" or action.is_card:
        return text
    if action.is_bid:
        dark = action.is_dark
        base = text[5:] if dark else text
        if base in _RU_CALLS:
            base = _RU_CALLS[base]
        elif base.endswith("-no-talon"):
            base = base[: -len("-no-talon")] + " без прикупа"
        else:
            base = base.replace("NT", "БК")
        return base + " втёмную" if dark else base
    return _RU_CALLS.get(text, text)


def display_order(actions: Sequence[int]) -> list[Action]:
    """Legal actions as a player reads them: cards in hand order (♠ ♣ ♦ ♥, high to low), then calls
    in the engine's order (pass first, then the bids upwards)."""
    cards = sorted((Action(a) for a in actions if a < 32), key=lambda a: (a >> 3, -(a & 7)))
    return cards + [Action(a) for a in actions if a >= 32]


def legal_names(deal: Deal, lang: str = "en") -> list[str]:
    return [action_name(a, lang) for a in display_order(deal.legal_actions())]


def _key(text: str) -> str:
    return " ".join(text.strip().lower().replace("ё", "е").split())


def read_action(deal: Deal, text: str, lang: str = "en") -> Action:
    """The legal action a person typed: its listed name in either language, or any engine text.

    Raises :class:`InputError` (unreadable, with a guess) or the engine's
    :class:`~preferans.errors.IllegalAction` (readable but not allowed now,
    with the rule).
    """
    t = T(lang)
    legal = display_order(deal.legal_actions())
    names: dict[str, Action] = {}
    for a in legal:
        for form in (action_name(a, "ru"), action_name(a, "en"), a.ascii()):
            names.setdefault(_key(form), a)
    key = _key(text)
    if not key:
        raise InputError(t("choose_from", choices=", ".join(action_name(a, lang) for a in legal)))
    if key in names:
        return names[key]
    try:
        action = deal.parse_action(text)
    except PreferansError:
        guess = difflib.get_close_matches(key, list(names), n=1, cutoff=0.5)
        msg = t("bad_input", text=text.strip())
        if guess:
            msg += "; " + t("did_you_mean", guess=action_name(names[guess[0]], lang))
        choices = ", ".join(action_name(a, lang) for a in legal)
        raise InputError(msg + "; " + t("choose_from", choices=choices)) from None
    deal.verify(action)  # raises IllegalAction with the rule's reason
    return Action(action)


def hand_text(mask: int) -> str:
    """A hand grouped by suit, high to low: ``♠A 10 7 ♣K``."""
    return format_hand(mask, grouped=True)


def contract_text(deal: Deal, names: Sequence[str], lang: str = "en", you: int | None = None) -> str:
    """``Left plays 7♠`` or the all-pass, for the status line."""
    t = T(lang)
    if deal.kind is DealKind.ALL_PASS or (deal.declarer is None and deal.phase is Phase.PLAY):
        return t("all_pass")
    c = deal.contract or deal.highest_bid
    if deal.declarer is None or c is None:
        return ""
    strain = action_name(Action.bid(c), lang)
    if deal.declarer == you:
        return t("you_play", contract=strain)
    return t("contract", name=names[deal.declarer], contract=strain)


def result_text(result: DealResult, score: DealScore | None, names: Sequence[str], lang: str = "en") -> list[str]:
    """The outcome of a deal and what it wrote on the sheet, a few lines."""
    t = T(lang)
    lines = [f"{t('result')}: {score.label if score else result.kind.value}"]
    if result.tricks:
        parts = [f"{names[s]} {n}" for s, n in sorted(result.tricks.items())]
        if result.players == 4 and result.dealer_tricks:
            parts.append(f"{names[result.dealer]} {result.dealer_tricks}")
        lines.append(f"{t('tricks')}: " + ", ".join(parts))
    if score is not None and score.entries:
        lines.append(f"{t('written')}: " + " · ".join(entry_text(e, tuple(names)) for e in score.entries))
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
