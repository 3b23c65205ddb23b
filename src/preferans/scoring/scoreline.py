"""The score keeper's line: one deal as players say it at the table, in English or Russian.

The compact notation (``A 7S B:w C:p B2``) and the words players use are read alike, in any
mix, case-insensitively::

    Аня 6♠ вист Боря пас Вася, 6 взяток     Аня plays 6♠, Боря whists, Вася passes; Аня took 6
    Боря 7 треф, оба вистуют, Вася 2 Аня 1   both whist; Боря took the rest (7)
    вася 8 бк пас пас                         not whisted: written as made
    Аня 6 пик Боря пас Вася полвиста          half-whist
    Аня 7♥ вист Боря пас Вася без одной       played one down (Аня took 6)
    Вася мизер чистый / Вася мизер 2          misère: the declarer's tricks
    распасы Аня 3 Боря 5 Вася 2               all-pass
    Anna 6S whist Boris pass Vera, 6 tricks  the same words in English

Names: a player's name in any case (``аня``), a short form that starts one name only (``Ан``
for Анна, ``Б`` for Боря), a name of several words (``Анна Мария 2``); a name written exactly
as at the table wins over a word of the line (a player named «В» is «В», the small «в» is
вист).  Calls before or after the name (``вист Боря``, ``Боря вист``, ``Боря:в``); a number
after a player is his tricks (``Вася 2``, ``В2``, ``Вася 2 взятки``), a number after a comma or
with nobody before it the declarer's; ``без одной`` / ``down 1`` — the declarer's
undertricks; ``сыграл`` / ``made`` — he took his contract; ``оба`` / ``both`` — both defenders.
Contracts: ``6♠ 7S 8БК 10NT``, ``6 пик``, ``семь треф``, ``8 без козыря``, ``9 без прикупа``,
``мизер``.  Options of the compact form: ``@D`` or ``сдавал Д`` (dealer), ``x2``, ``-3``
(«без трёх»), ``-10`` («без всех»), ``лёжа``/``open``, ``за своими``/``quota``,
``пополам``/``half``, ``help=C``, ``bomb=A``, ``talon=AH,KH``, ``shown``.

Every mistake is a :class:`~preferans.errors.ScoreError` carrying a
:class:`~preferans.i18n.Msg` (its words in the reader's language) that names the word it could
not read, the player or the count.

>>> from preferans.scoring.pulka import Pulka
>>> p = Pulka(players=["Аня", "Боря", "Вася"])
>>> d = parse_line("Аня 6♠ вист Боря пас Вася, 6 взяток", p)
>>> d.declarer, str(d.contract), d.defence, d.tricks
(0, '6♠', {1: <DefenceCall.WHIST: 'whist'>, 2: <DefenceCall.PASS: 'pass'>}, {0: 6})
>>> parse_line("распасы ан3 б5 в2", p).tricks
{0: 3, 1: 5, 2: 2}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from ..actions import Contract
from ..cards import parse_cards
from ..engine.result import DefenceCall
from ..errors import PreferansError, ScoreError
from ..i18n import Call, Msg
from ..seats import DUMMY, active_seats, defenders_of

if TYPE_CHECKING:
    from .pulka import Pulka

__all__ = ["CALL_WORDS", "DUMMY_WORDS", "Parsed", "fail", "parse_line", "player_seat"]

CALL_WORDS: dict[str, DefenceCall] = {
    "w": DefenceCall.WHIST, "whist": DefenceCall.WHIST, "whists": DefenceCall.WHIST,
    "вист": DefenceCall.WHIST, "в": DefenceCall.WHIST, "вистует": DefenceCall.WHIST,
    "вистуют": DefenceCall.WHIST, "вистовал": DefenceCall.WHIST, "вистовала": DefenceCall.WHIST,
    "вистовали": DefenceCall.WHIST, "висты": DefenceCall.WHIST,
    "p": DefenceCall.PASS, "pass": DefenceCall.PASS, "passes": DefenceCall.PASS, "passed": DefenceCall.PASS,
    "пас": DefenceCall.PASS, "п": DefenceCall.PASS, "пасует": DefenceCall.PASS, "пасуют": DefenceCall.PASS,
    "пасовал": DefenceCall.PASS, "пасовала": DefenceCall.PASS, "пасовали": DefenceCall.PASS,
    "h": DefenceCall.HALF, "half-whist": DefenceCall.HALF, "halfwhist": DefenceCall.HALF,
    "полвиста": DefenceCall.HALF, "пв": DefenceCall.HALF, "пол-виста": DefenceCall.HALF,
}  # fmt: skip
"""A defender's call, as a word of its own or after a colon (``B:w``).  ``half`` alone is
the misère «пополам»; after a colon (``C:half``) it is the half-whist."""

_COLON_CALLS = {**CALL_WORDS, "half": DefenceCall.HALF}
_MISERE = frozenset({"мизер", "misere", "misère", "mis"})
_ALLPASS = frozenset({"allpass", "all-pass", "ap", "raspas", "распасы", "распас", "распасовка", "распасовку"})
VOID_WORDS = frozenset({"void", "redeal", "misdeal", "пересдача"})
PENALTY_WORDS = frozenset({"penalty", "штраф"})
DUMMY_WORDS = ("dummy", "болван")
_BOTH = frozenset({"оба", "both", "обе"})
_MADE = frozenset({"made", "сыграл", "сыграла", "сыграно", "сыграна", "своя", "свою", "ровно"})
_CLEAN = frozenset({"clean", "чистый", "чисто", "чистая", "чистую"})
_UNDER = frozenset({"без", "down", "минус"})
_DEALER = frozenset({"сдавал", "сдавала", "сдаёт", "сдает", "сдающий", "сдача", "dealer", "dealt", "deals"})
_QUOTA = frozenset({"quota", "za_svoimi", "засвоими", "за_своими"})
_OPEN = frozenset({"open", "лёжа", "лежа", "открыто", "открытая"})
_HALF = frozenset({"half", "пополам"})
_NOISE = frozenset({
    "и", "and", "—", "–", "-", "играет", "играл", "играла", "заказал", "заказала", "plays",
    "played", "declares", "took", "взял", "взяла", "взяли", "берёт", "берет", "got", "стоя", "closed",
    "закрыто", "on", "на", "поймали", "поймал", "caught", "tricks", "trick", "взятка", "взятки", "взяток",
    "взятку", "игра", "game", "проверка", "проверили", "проверяли", "checked", "tricks:",
})  # fmt: skip
_NUMBER_WORDS = {
    "ноль": 0, "zero": 0, "nil": 0, "одна": 1, "одну": 1, "один": 1, "одной": 1, "одного": 1, "one": 1,
    "две": 2, "два": 2, "двух": 2, "two": 2, "три": 3, "трёх": 3, "трех": 3, "three": 3,
    "четыре": 4, "четырёх": 4, "четырех": 4, "four": 4, "пять": 5, "пяти": 5, "five": 5,
    "шесть": 6, "шести": 6, "six": 6, "семь": 7, "семи": 7, "seven": 7, "восемь": 8, "восьми": 8,
    "eight": 8, "девять": 9, "девяти": 9, "nine": 9, "десять": 10, "десяти": 10, "ten": 10,
}  # fmt: skip
# The forms of a suit after a number that the contract reader does not know: «6 пик», «7 треф».
_SUIT_FORMS = {"пик": "п", "треф": "т", "бубен": "б", "бубей": "б", "червей": "ч", "черв": "ч", "червь": "ч"}
# Phrases of two words read as one (their words in lower case, ё as е).
_PHRASES = tuple((re.compile(pattern, re.IGNORECASE), short) for pattern, short in (
    (r"\bни\s+одн(?:ой|ого)\b", " 0 "),
    (r"\bбез\s+козыр(?:я|ей)\b", "бк"),
    (r"\bбез\s+прикупа\b", "бп"),
    (r"\bno\s+trumps?\b", "nt"),
    (r"\bза\s+сво(?:ими|и)\b", " засвоими "),
    (r"\bпол\s+виста\b", " полвиста "),
    (r"\bhalf\s+whist\b", " half-whist "),
    (r"\ball\s+pass\b", " allpass "),
))


def fail(message: Msg) -> ScoreError:
    """A score keeper's error carrying its message in every language."""
    return ScoreError(message)


class Parsed:
    """A deal read from a line or a JSON object, before it becomes a
    :class:`~preferans.engine.result.DealResult`."""

    __slots__ = (
        "allpass", "bombs", "conceded", "contract", "dealer", "dealer_tricks", "dealer_whist", "declarer",
        "defence", "help_to", "made", "misere_half", "multiplier", "offender", "open", "penalty", "quota",
        "sheet", "talon", "talon_shown", "tricks", "under", "void",
    )  # fmt: skip

    def __init__(self) -> None:
        self.allpass = False
        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.defence: dict[int, DefenceCall] = {}
        self.tricks: dict[int, int] = {}
        self.dealer: int | None = None
        self.dealer_tricks = 0
        self.multiplier = 1
        self.conceded = 0
        self.open = False
        self.misere_half = False
        self.dealer_whist = False  # the 4-handed dealer whisted (dealer_whist)
        self.talon_shown = False  # the 4-handed dealer showed the talon (dealer_shown_talon_whists)
        self.sheet: list[tuple[str, int, Fraction, int]] | None = None  # lines written by hand
        self.help_to: int | None = None
        self.bombs: tuple[int, ...] = ()
        self.talon: tuple[int, ...] = ()
        self.void = False  # a misdeal: nothing written, the same dealer deals again
        self.offender: int | None = None
        self.penalty: dict[int, Fraction] | None = None  # Kodeks 3.3.16.3 whists on the offender
        self.quota = False  # «за своими» said in words: the lone whister writes his quota unplayed
        self.made = False  # «сыграл»: the declarer took his contract
        self.under: int | None = None  # «без одной»: the declarer's undertricks


def _fold(word: str) -> str:
    """A word compared without case, ё as е."""
    return word.casefold().replace("ё", "е")


def player_seat(names: Sequence[str], word: str, field: Msg | str) -> int | None:
    """The seat a word names: the name in any case, or a short form that starts one name only
    (or one word of a name); ``None`` when it names nobody; an error naming the candidates
    when it starts several.

    >>> names = ("Анна", "Антон", "Боря")
    >>> player_seat(names, "боря", "x"), player_seat(names, "Анн", "x"), player_seat(names, "Вова", "x")
    (2, 0, None)
    >>> player_seat(names, "Ан", "declarer")
    Traceback (most recent call last):
    ...
    preferans.errors.ScoreError: declarer: «Ан» may be Анна or Антон; write more of the name
    """
    if word in names:
        return names.index(word)
    key = _fold(word)
    if not key or not any(ch.isalpha() for ch in key):
        return None
    folded = [_fold(n) for n in names]
    if key in folded:
        return folded.index(key)
    hits = [i for i, n in enumerate(folded) if n.startswith(key) or any(p.startswith(key) for p in n.split())]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise fail(Msg("{field}: «{word}» may be {names}; write more of the name", field=field, word=word,
                       names=Msg("{a} or {b}", a=", ".join(names[i] for i in hits[:-1]), b=names[hits[-1]])))
    return None


class _Name:
    """A player named on the line (``seat`` ``-1`` for «both defenders»)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat


class _Line:
    """The words of a line, each as written: names of several words made into one token (a
    mark keeping the seat), two-word phrases into one word, commas into words of their own."""

    MARK = re.compile("\x01(\\d)\x02")

    def __init__(self, text: str, names: Sequence[str]) -> None:
        s = " " + text + " "
        for pattern, short in _PHRASES:
            s = pattern.sub(short, s)
        for seat in sorted(range(len(names)), key=lambda k: -len(names[k])):
            if " " in names[seat]:
                letters = "".join("[её]" if ch in "её" else re.escape(ch) for ch in names[seat].casefold())
                s = re.sub(rf"(?<![\w\x01]){letters}(?![^\W\d_])", f"\x01{seat}\x02", s, flags=re.IGNORECASE)
        words: list[str] = []
        for word in s.replace(";", " ; ").split():
            if "=" in word:  # talon=AH,KH, bomb=A,B: the commas are the option's own
                words.extend([word.rstrip(","), ","] if word.endswith(",") else [word])
            else:
                words.extend(w for w in word.replace(",", " , ").split())
        self.tokens: list[str] = [w.rstrip(".!?") or w for w in words]


def parse_line(text: str, pulka: Pulka) -> Parsed:
    """Read one line of a deal (see the module docstring)."""
    line = _Line(text, pulka.names)
    if not line.tokens:
        raise fail(Msg("line: empty; write a deal, e.g. {example}", example=_example(pulka.names)))
    return _Reader(pulka, line).read()


def _example(names: Sequence[str]) -> str:
    a, b, c = (names[k % len(names)] for k in range(3))
    return f"«{a} 6♠ вист {b} пас {c}, 6»" if any("а" <= ch <= "я" for n in names for ch in n.lower()) else \
        f"«{a} 6♠ {b}:w {c}:p {a}6»"  # fmt: skip


class _Reader:
    """A deal line: its head (the declarer and the contract, or an all-pass), then calls,
    tricks and options in any order."""

    def __init__(self, pulka: Pulka, line: _Line) -> None:
        self.pulka = pulka
        self.names = pulka.names
        self.line = line
        self.p = Parsed()
        self.pending_name: _Name | None = None  # a player named, his call or tricks yet to come
        self.pending_call: DefenceCall | None = None  # a call said before its player («вист Боря»)
        self.loose: list[DefenceCall] = []  # calls said with no player («пас, пас»): the defenders' in turn
        self.subject: _Name | None = None  # whom a number right after refers to («Боря вист 2»)
        self.under_next = False  # «без» said: the next number is the declarer's undertricks
        self.dealer_next = False  # «сдавал» said: the next player dealt

    # -- the words ---------------------------------------------------------------------------
    def _exact(self, token: str) -> _Name | None:
        """A player written exactly as at the table (a mark for a name of several words)."""
        m = _Line.MARK.fullmatch(token)
        if m:
            return _Name(int(m.group(1)))
        if token in self.names:
            return _Name(self.names.index(token))
        if len(token) == 1 and token.isupper() and token.isalpha():
            # A capital initial names its player (Б for Боря) before it is a call's letter (п, в).
            seat = player_seat(self.names, token, Msg("player"))
            if seat is not None:
                return _Name(seat)
        return None

    def _player(self, token: str) -> _Name | None:
        """A token naming a player: exactly, «оба», the dummy, or a name or short form in any case."""
        exact = self._exact(token)
        if exact is not None:
            return exact
        low = _fold(token)
        if low in _BOTH:
            return _Name(-1)
        if self.pulka.players == 2 and low in DUMMY_WORDS:
            return _Name(DUMMY)
        if _is_word(token):
            seat = player_seat(self.names, token, Msg("player"))
            if seat is not None:
                return _Name(seat)
        return None

    # -- the head ----------------------------------------------------------------------------
    def read(self) -> Parsed:
        tokens = self.line.tokens
        i = self._head(tokens)
        while i < len(tokens):
            self._word(tokens[i])
            i += 1
        self._finish()
        return self.p

    def _head(self, tokens: list[str]) -> int:
        """``allpass`` or the declarer and the contract (either first); the index after them."""
        p = self.p
        if _fold(tokens[0]) in _ALLPASS:
            p.allpass = True
            return 1
        i = 0
        while i < len(tokens) and (p.declarer is None or p.contract is None):
            tok = tokens[i]
            if p.declarer is None:
                who = self._exact(tok)
                if who is None and _fold(tok) not in CALL_WORDS and not self._contract_at(tokens, i, probe=True):
                    who = self._player(tok)
                if who is not None and 0 <= who.seat < len(self.names):
                    p.declarer = who.seat
                    i += 1
                    continue
            if p.contract is None:
                took = self._contract_at(tokens, i)
                if took:
                    i += took
                    continue
            if _fold(tok) in _NOISE:
                i += 1
                continue
            break
        if p.declarer is None:
            raise fail(Msg("declarer: start with who played ({names}) or «распасы», not «{word}»",
                           names=", ".join(self.names), word=tokens[0]))  # fmt: skip
        if p.contract is None:
            example = f"«{self.names[p.declarer]} 7♠»"
            if i < len(tokens) and tokens[i][:1].isdigit():
                raise fail(Msg("contract: cannot read «{word}»: write 6♠ … 10NT (or 7 пик, 8 БК), мизер",
                               word=tokens[i]))  # fmt: skip
            if i < len(tokens):
                raise fail(Msg("contract: write the game after the declarer, e.g. {example}, not «{word}»",
                               example=example, word=tokens[i]))  # fmt: skip
            raise fail(Msg("contract: write the game after the declarer, e.g. {example}", example=example))
        return i

    def _contract_at(self, tokens: list[str], i: int, *, probe: bool = False) -> int:
        """How many tokens from ``i`` make a contract (``7♠``, ``7 пик``, ``семь без козыря``,
        ``мизер``), or 0; ``probe`` only looks."""
        for k in (3, 2, 1):
            if i + k > len(tokens):
                continue
            parts = [_fold(x) for x in tokens[i : i + k]]
            if k > 1 and not (parts[0].isdigit() or parts[0] in _NUMBER_WORDS):
                continue
            text = "".join(str(_NUMBER_WORDS.get(x, x)) if j == 0 else _SUIT_FORMS.get(x, x)
                           for j, x in enumerate(parts))  # fmt: skip
            if not any(ch.isdigit() for ch in text) and text not in _MISERE:
                continue  # a single letter is a name or a call, never a contract
            try:
                contract = Contract.parse(text)
            except PreferansError:
                continue
            if not probe:
                self.p.contract = contract
            return k
        return 0

    # -- the body ----------------------------------------------------------------------------
    def _word(self, tok: str) -> None:
        """Read one token after the head."""
        low = _fold(tok)
        if tok in (",", ";"):
            self._close_pending()
            self.subject = None
            return
        exact = self._exact(tok)
        if exact is not None:
            self._name(exact)
            return
        if self._option(tok, low) or self._glued(tok):
            return
        call = CALL_WORDS.get(low)
        if call is not None and not self.p.allpass:
            self._call(call)
            return
        n = int(low) if low.isdigit() else _NUMBER_WORDS.get(low)
        if n is not None:
            self._count(n, tok)
            return
        if low in _NOISE:
            return
        who = self._player(tok)
        if who is not None:
            self._name(who)
            return
        raise fail(Msg("cannot read «{word}» (players: {names})", word=tok, names=", ".join(self.names)))

    def _glued(self, tok: str) -> bool:
        """``B2``, ``B=2``, ``Б:в``, ``B:w2`` — a player glued to his tricks or his call."""
        m = re.fullmatch(r"(.+?)[:=]?(\d+)", tok)
        if m and not tok.isdigit() and _fold(m.group(1)) not in _UNDER:
            who = self._player(m.group(1))
            if who is not None and who.seat >= 0:
                self._close_pending()
                self._tricks(who.seat, int(m.group(2)), m.group(1))
                self.subject = None
                return True
        m = re.fullmatch(r"(.+?):([^\d:]+)(\d*)", tok)
        if m:
            who = self._player(m.group(1))
            if who is not None and not self.p.allpass:
                call = _COLON_CALLS.get(_fold(m.group(2)))
                if call is None:
                    raise fail(Msg("defence: «{word}»: write {name}:w (whist), :p (pass) or :h (half-whist)",
                                   word=tok, name=self._shown(who)))  # fmt: skip
                self._close_pending()
                self._assign(who, call)
                if m.group(3):
                    self._tricks(who.seat, int(m.group(3)), m.group(1))
                return True
        return False

    def _shown(self, who: _Name) -> str:
        return self.names[who.seat] if 0 <= who.seat < len(self.names) else DUMMY_WORDS[0]

    def _name(self, who: _Name) -> None:
        if self.dealer_next:
            if not 0 <= who.seat < len(self.names):
                raise fail(Msg("dealer: name the player who dealt"))
            self.p.dealer = who.seat
            self.dealer_next = False
            return
        if self.pending_call is not None:
            call, self.pending_call = self.pending_call, None
            self._assign(who, call)
            return
        self._close_pending()
        self.pending_name = who

    def _call(self, call: DefenceCall) -> None:
        if self.pending_name is not None:
            who, self.pending_name = self.pending_name, None
            self._assign(who, call)
            return
        if self.pending_call is not None:
            self.loose.append(self.pending_call)
        self.pending_call = call
        self.subject = None

    def _assign(self, who: _Name, call: DefenceCall) -> None:
        p = self.p
        seats = self._defenders() if who.seat == -1 else [who.seat]
        for s in seats:
            if s == p.declarer:
                raise fail(Msg("defence: {name} is the declarer; his opponents whist or pass", name=self.names[s]))
            if s in p.defence and p.defence[s] is not call:
                raise fail(Msg("defence: {name} said «{a}» and «{b}»", name=self._shown(_Name(s)),
                               a=_said(p.defence[s]), b=_said(call)))
            p.defence[s] = call
        # A number right after a whister is his tricks («вист Боря 2»); after a passer it is the
        # declarer's («пас Вася 6»): a passer's tricks are written by naming him («Вася 2»).
        self.subject = who if who.seat >= 0 and call is not DefenceCall.PASS else None

    def _defenders(self) -> list[int]:
        p = self.p
        assert p.declarer is not None
        active = active_seats(_dealer(p, self.pulka), self.pulka.players)
        if p.declarer not in active:  # four players: the dealer sits out
            raise fail(Msg("declarer: {name} deals and sits out this deal", name=self.names[p.declarer]))
        return [s for s in defenders_of(active, p.declarer) if s < len(self.names)]

    def _close_pending(self) -> None:
        """A player named with nothing after him: on an all-pass an error, else ask for his call."""
        who = self.pending_name
        if who is None:
            return
        self.pending_name = None
        if self.p.allpass:
            raise fail(Msg("tricks: how many tricks did {name} take?", name=self._shown(who)))
        if who.seat == -1:
            raise fail(Msg("defence: «both» — both whist or both pass? write e.g. «both whist»"))
        raise fail(Msg("defence: what did {name} say — whist, pass or half-whist?", name=self._shown(who)))

    def _count(self, n: int, word: str) -> None:
        p = self.p
        if self.under_next:
            self.under_next = False
            p.under = n
            return
        if self.pending_name is not None:
            who, self.pending_name = self.pending_name, None
            if who.seat == -1:
                raise fail(Msg("tricks: «both {count}»: write each defender's tricks", count=n))
            self._tricks(who.seat, n, self._shown(who))
            return
        if self.subject is not None and self.pending_call is None:
            who, self.subject = self.subject, None
            self._tricks(who.seat, n, self._shown(who))
            return
        if p.allpass:
            raise fail(Msg("tricks: whose {word} tricks? write a player before the number, e.g. {example}",
                           word=word, example=f"«{self.names[0]} {n}»"))  # fmt: skip
        assert p.declarer is not None
        self._tricks(p.declarer, n, self.names[p.declarer])

    def _tricks(self, seat: int, n: int, shown: str) -> None:
        p = self.p
        if not 0 <= n <= 10:
            raise fail(Msg("tricks of {name}: a player takes 0 to 10 tricks, not {count}", name=shown, count=n))
        if p.allpass and self.pulka.players == 4 and seat == _dealer(p, self.pulka):
            if n > 2:
                raise fail(Msg("tricks of {name}: the dealer takes at most the 2 talon tricks, not {count}",
                               name=shown, count=n))  # fmt: skip
            p.dealer_tricks = n
            return
        if seat in p.tricks and p.tricks[seat] != n:
            raise fail(Msg("tricks of {name}: {a} or {b}?", name=shown, a=p.tricks[seat], b=n))
        p.tricks[seat] = n

    def _option(self, tok: str, low: str) -> bool:
        """``@D``, ``x2``, ``-3``, ``-10``, ``open``, ``half``, ``help=C``, ``bomb=A,B``,
        ``talon=AH,KH``, ``shown``, and the words ``без``, ``сыграл``, ``чистый``, ``сдавал``,
        ``за своими``."""
        p = self.p
        if low.startswith("@") and len(low) > 1:
            p.dealer = self._seat_of(tok[1:], Msg("dealer"))
        elif low.startswith("dealer=") and len(low) > 7:
            p.dealer = self._seat_of(tok[7:], Msg("dealer"))
        elif low in _DEALER:
            self._close_pending()
            self.dealer_next = True
        elif re.fullmatch(r"[x*×х]\d+", low):
            p.multiplier = int(low[1:])
            if not 1 <= p.multiplier <= 1 << 20:
                raise fail(Msg("multiplier: 1 to {top}, not {count}", top=1 << 20, count=p.multiplier))
        elif low in ("-3", "без3", "bez3", "concede3"):
            p.conceded = 3
        elif low in ("-10", "-all", "безвсех", "concede10"):
            p.conceded = 10
        elif low in _OPEN:
            p.open = True
        elif low in _QUOTA:
            p.quota = True  # seed-002 p.27: the lone whister writes his quota without play
        elif low in _HALF:
            p.misere_half = True
        elif low in _UNDER:
            self._close_pending()
            self.subject = None
            self.under_next = True
        elif low in _MADE:
            self._close_pending()
            p.made = True
        elif low in _CLEAN:
            self._close_pending()
            assert p.declarer is not None or p.allpass
            if p.declarer is None:
                return False
            self._tricks(p.declarer, 0, self.names[p.declarer])
        elif low.startswith("help=") and len(low) > 5:
            p.help_to = self._seat_of(tok[5:], Msg("help"))
        elif low.startswith("bomb=") and len(low) > 5:
            p.bombs = tuple(self._seat_of(b, Msg("bomb")) for b in tok[5:].split(","))
        elif low in ("shown", "засветил"):
            p.talon_shown = True
        elif low.startswith("talon="):
            p.talon = talon_cards(tok[6:].replace(",", " "))
        else:
            return False
        return True

    def _seat_of(self, word: str, field: Msg) -> int:
        who = self._player(word)
        if who is None or not 0 <= who.seat < len(self.names):
            raise fail(Msg("{field}: «{word}» is not a player here ({names})", field=field, word=word,
                           names=", ".join(self.names)))  # fmt: skip
        return who.seat

    def _finish(self) -> None:
        """What the words say once the line is read: the last player named, calls said without
        players (the defenders' in turn), «без», «сыграл»."""
        p = self.p
        self._close_pending()
        if self.pending_call is not None:
            self.loose.append(self.pending_call)
            self.pending_call = None
        if self.dealer_next:
            raise fail(Msg("dealer: name the player who dealt"))
        if self.under_next:
            raise fail(Msg("tricks: «без» — how many tricks down? e.g. «без одной»"))
        if self.loose:
            free = [s for s in self._defenders() if s not in p.defence]
            if len(self.loose) != len(free):
                raise fail(Msg("defence: whose call is «{call}»? write the player after it, e.g. {example}",
                               call=_said(self.loose[0]), example=_call_example(self.names)))
            for s, call in zip(free, self.loose, strict=True):
                p.defence[s] = call
        decl, contract = p.declarer, p.contract
        if p.under is not None or p.made:
            if decl is None or contract is None or contract.is_misere:
                raise fail(Msg("tricks: «made» and «down» are said of a trick game"))
            if p.under is not None and p.made:
                raise fail(Msg("tricks: «made» and «down {count}» in one line", count=p.under))
            taken = contract.level - (p.under or 0)
            if p.under is not None and not 1 <= p.under <= contract.level:
                raise fail(Msg("tricks: a {level} goes down 1 to {level} tricks, not {count}", level=contract.level,
                               count=p.under))  # fmt: skip
            if decl in p.tricks and p.tricks[decl] != taken:
                raise fail(Msg("tricks of {name}: {a} or {b}?", name=self.names[decl], a=p.tricks[decl], b=taken))
            p.tricks[decl] = taken


def _said(call: DefenceCall) -> Call:
    """A defender's call by its name at the table (вист, пас, полвиста)."""
    return Call("half-whist" if call is DefenceCall.HALF else call.value)


def _is_word(token: str) -> bool:
    return any(ch.isalpha() for ch in token) and not any(ch.isdigit() for ch in token)


def _call_example(names: Sequence[str]) -> str:
    return f"«вист {names[1 % len(names)]}»"


def _dealer(p: Parsed, pulka: Pulka) -> int:
    return pulka.next_dealer if p.dealer is None else p.dealer


def talon_cards(text: str) -> tuple[int, ...]:
    """The two talon cards (for the dealer's «проданные тузы», rules.md §9.3)."""
    try:
        cards = tuple(int(c) for c in parse_cards(text))
    except PreferansError as e:
        raise fail(Msg("talon: {reason}", reason=str(e))) from None
    if len(cards) != 2:
        raise fail(Msg("talon: two cards, not {count}", count=len(cards)))
    return cards
