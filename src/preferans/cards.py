"""Cards, suits and hands as 32-bit masks.

A card is an ``int`` from 0 to 31: ``suit * 8 + rank`` with suits in bidding
seniority (♠ 0, ♣ 1, ♦ 2, ♥ 3) and ranks 7 8 9 10 J Q K A as 0 … 7.  A hand is
a mask with bit ``card`` set for every card held, so set operations on hands
are integer operations.

>>> Card.parse("10♠"), Card.parse("AH"), Card.parse("TS") == Card.parse("10S")
(Card('10♠'), Card('A♥'), True)
>>> str(Card.parse("qd")), Card.parse("QD").ascii()
('Q♦', 'QD')
>>> format_hand(parse_hand("7♠ A♠ 10♥ K♣"))
'A♠ 7♠ K♣ 10♥'
>>> format_hand(parse_hand("♠A 7 ♣K ♥10"), grouped=True)
'♠A 7 ♣K ♥10'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum

from .errors import CardError

__all__ = [
    "ALL_CARDS_MASK",
    "DECK",
    "RANKS",
    "RANK_NAMES",
    "SUIT_MASKS",
    "SUIT_WORDS",
    "Card",
    "CardsLike",
    "Mask",
    "Rank",
    "Suit",
    "cards_of",
    "format_hand",
    "layout_problem",
    "mask_of",
    "parse_cards",
    "parse_hand",
    "popcount",
    "rank_text",
    "to_mask",
    "with_ranks",
]

Mask = int
"""A set of cards as 32 bits: bit ``card`` is set for every card in it."""


class Suit(IntEnum):
    """The four suits in bidding seniority: ♠ < ♣ < ♦ < ♥ (rules.md §1)."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    def __str__(self) -> str:
        return SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``♠``/``S``/``пики``-style suit names.

        >>> Suit.parse("h"), Suit.parse("♣"), Suit.parse("бубны")
        (<Suit.HEARTS: 3>, <Suit.CLUBS: 1>, <Suit.DIAMONDS: 2>)
        """
        if not isinstance(text, str):
            raise CardError(f"suit: give text such as '♠' or 'S', not {type(text).__name__} {text!r}")
        key = text.strip().lower()
        suit = SUIT_WORDS.get(key)
        if suit is None:
            raise CardError(f"unknown suit {text!r}: use ♠ ♣ ♦ ♥ or S C D H")
        return Suit(suit)


class Rank(IntEnum):
    """Ranks in trick-taking order: 7 < 8 < 9 < 10 < J < Q < K < A (rules.md §1)."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7


SUIT_SYMBOLS = ("♠", "♣", "♦", "♥")
SUIT_LETTERS = ("S", "C", "D", "H")
RANK_NAMES = ("7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_ASCII = ("7", "8", "9", "T", "J", "Q", "K", "A")

# The one table of suit words (lower case) → suit, read by cards, contracts and calls alike:
# symbols, letters, English and Russian names, and the Russian initials of a score line («7п»).
SUIT_WORDS: dict[str, int] = {}
for _i, (_sym, _let) in enumerate(zip(SUIT_SYMBOLS, SUIT_LETTERS, strict=True)):
    SUIT_WORDS[_sym] = _i
    SUIT_WORDS[_let.lower()] = _i
for _i, _words in enumerate(
    (
        ("spades", "spade", "пики", "пика", "♤", "п"),
        ("clubs", "club", "трефы", "трефа", "♧", "т"),
        ("diamonds", "diamond", "бубны", "бубна", "♢", "б"),
        ("hearts", "heart", "червы", "черви", "черва", "♡", "ч"),
    )
):
    for _w in _words:
        SUIT_WORDS[_w] = _i

_RANK_WORDS: dict[str, int] = {}
for _i, _name in enumerate(RANK_NAMES):
    _RANK_WORDS[_name.lower()] = _i
_RANK_WORDS["t"] = Rank.TEN
# Russian letters for picture cards: В(алет), Д(ама), К(ороль), Т(уз).
_RANK_WORDS.update({"в": Rank.JACK, "д": Rank.QUEEN, "к": Rank.KING, "т": Rank.ACE})

SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))
ALL_CARDS_MASK = 0xFFFFFFFF


class Card(int):
    """One of the 32 cards; an ``int`` 0–31 so it can index tables and masks.

    Instances are interned: ``Card(5) is Card(5)``.

    >>> c = Card.parse("K♦")
    >>> int(c), c.suit, c.rank, c.bit == 1 << int(c)
    (22, <Suit.DIAMONDS: 2>, <Rank.KING: 6>, True)
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        try:
            return _CARDS[value]
        except (IndexError, TypeError):
            raise CardError(f"card id must be an integer 0..31, not {value!r}") from None

    @property
    def suit(self) -> Suit:
        return Suit(self >> 3)

    @property
    def rank(self) -> Rank:
        return Rank(self & 7)

    @property
    def bit(self) -> int:
        return 1 << self

    def ascii(self) -> str:
        """ASCII text: ``AH``, ``TS``."""
        return _RANK_ASCII[self & 7] + SUIT_LETTERS[self >> 3]

    def __str__(self) -> str:
        return RANK_NAMES[self & 7] + SUIT_SYMBOLS[self >> 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    @classmethod
    def from_parts(cls, rank: int, suit: int) -> Card:
        return _CARDS[suit * 8 + rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``A♥``, ``10♠``, ``AH``, ``TS``, ``10S`` (rank then suit), any case."""
        if not isinstance(text, str):
            raise CardError(f"card: give text such as 'A♥' or 'TS', not {type(text).__name__} {text!r}")
        s = text.strip()
        if len(s) < 2:
            raise CardError(f"cannot read card {text!r}: expected rank then suit, e.g. 'A♥' or 'TS'")
        rank = _RANK_WORDS.get(s[:-1].lower())
        suit = SUIT_WORDS.get(s[-1].lower())
        if rank is None or suit is None:
            what = "rank" if rank is None else "suit"
            raise CardError(
                f"cannot read card {text!r}: unknown {what}; ranks are 7 8 9 10(T) J Q K A, "
                "suits ♠ ♣ ♦ ♥ (S C D H)"
            )
        return _CARDS[suit * 8 + rank]


_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(32))
DECK: tuple[Card, ...] = _CARDS

_POP = bytes(bin(i).count("1") for i in range(256))
# Cards present in one suit's byte, high rank first: the hot path of legal-move
# generation turns masks into card tuples through this table.
_BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(_CARDS[s * 8 + r] for r in range(7, -1, -1) if b >> r & 1) for b in range(256))
    for s in range(4)
)
# Same table in ascending order, the engine's canonical order of legal cards.
_BYTE_CARDS_UP: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(_CARDS[s * 8 + r] for r in range(8) if b >> r & 1) for b in range(256))
    for s in range(4)
)


def popcount(mask: int) -> int:
    """Number of cards in a mask."""
    return mask.bit_count()


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in ascending id order (♠7 first, ♥A last)."""
    t = _BYTE_CARDS_UP
    return t[0][mask & 0xFF] + t[1][mask >> 8 & 0xFF] + t[2][mask >> 16 & 0xFF] + t[3][mask >> 24]


def mask_of(cards: Iterable[int]) -> int:
    """The mask of some cards; duplicates are rejected."""
    mask = 0
    for c in cards:
        bit = 1 << Card(c)
        if mask & bit:
            raise CardError(f"card {Card(c)} appears twice")
        mask |= bit
    return mask


CardsLike = int | str | Iterable[int]
"""Cards as callers give them: a mask, text (see :func:`parse_cards`) or card ids."""


def to_mask(cards: CardsLike | None, what: str = "cards") -> Mask:
    """The one card-mask builder: a mask, text or card ids into a mask.

    Duplicates and masks beyond 32 cards are rejected with a
    :class:`CardError` that starts with ``what`` (``"hand of seat 1: card A♠
    appears twice"``).  ``None`` is no cards.

    >>> to_mask("A♠ K♠") == to_mask([7, 6]) == 0xC0
    True
    >>> to_mask("A♠ A♠", "talon")
    Traceback (most recent call last):
    ...
    preferans.errors.CardError: talon: card A♠ appears twice
    """
    if cards is None:
        return 0
    try:
        if isinstance(cards, str):
            return mask_of(parse_cards(cards))
        if isinstance(cards, int) and not isinstance(cards, Card):
            if not 0 <= cards <= ALL_CARDS_MASK:
                raise CardError("a mask must fit in 32 bits")
            return cards
        if not isinstance(cards, Iterable):
            raise CardError(f"cannot read {cards!r} as cards")
        return mask_of(cards)
    except CardError as e:
        raise CardError(f"{what}: {e}") from None


def layout_problem(
    hands: Sequence[Mask], talon: Sequence[int], sizes: Sequence[int], names: Sequence[str] = ()
) -> str | None:
    """What is wrong with a layout of cards, or ``None``: hand ``i`` (called ``names[i]``, else
    "seat i") holds ``sizes[i]`` cards, no card is in two hands, and the two talon cards are in
    no hand.  The deal and the solver check their cards with it.

    >>> layout_problem([to_mask("A♠ K♠"), to_mask("K♠ Q♠")], parse_cards("7♥ 8♥"), [2, 2])
    'hands: card K♠ is dealt twice'
    >>> layout_problem([to_mask("A♠")], parse_cards("A♠ 8♥"), [1], ["the declarer"])
    'talon: card A♠ is also in a hand'
    >>> layout_problem([to_mask("A♠")], parse_cards("7♥ 8♥"), [0], ["the dealer (who sits out)"])
    'hands: the dealer (who sits out) must hold 0 cards, not 1'
    """
    if len(talon) != 2:
        return f"talon: must hold exactly 2 cards, not {len(talon)}"
    seen = 0
    for i, (h, want) in enumerate(zip(hands, sizes, strict=True)):
        if h.bit_count() != want:
            who = names[i] if i < len(names) else f"seat {i}"
            return f"hands: {who} must hold {want} cards, not {h.bit_count()}"
        if seen & h:
            return f"hands: card {cards_of(seen & h)[0]} is dealt twice"
        seen |= h
    for c in talon:
        if seen >> c & 1:
            return f"talon: card {Card(c)} is also in a hand"
        seen |= 1 << c
    return None


def iter_display(mask: int) -> Iterator[Card]:
    """Cards in display order: suits ♠ ♣ ♦ ♥, each from high to low."""
    for s in range(4):
        yield from _BYTE_CARDS[s][mask >> (8 * s) & 0xFF]


def format_hand(mask: int, *, grouped: bool = False, ascii: bool = False) -> str:
    """Print a hand in suit order ♠ ♣ ♦ ♥, high to low.

    ``grouped`` writes each suit once (``♠A 10 7 ♣K``), the compact form used in
    problem books; ``ascii`` uses letters (``AS TS``).
    """
    if not grouped:
        return " ".join(c.ascii() if ascii else str(c) for c in iter_display(mask))
    parts = []
    for s in range(4):
        cards = _BYTE_CARDS[s][mask >> (8 * s) & 0xFF]
        if not cards:
            continue
        ranks = " ".join((_RANK_ASCII if ascii else RANK_NAMES)[c & 7] for c in cards)
        parts.append((SUIT_LETTERS if ascii else SUIT_SYMBOLS)[s] + ranks)
    return " ".join(parts) if parts else "-"


RANKS = ("en", "ru")
"""The rank letters a player may read cards in: ``en`` — A K Q J; ``ru`` — Т К Д В (туз, король,
дама, валет), as Russian packs and Russian books on Preferans print them."""

_PICTURE_LETTERS = {"en": ("J", "Q", "K", "A"), "ru": ("В", "Д", "К", "Т")}
_TO_RU = str.maketrans("JQKA", "ВДКТ")
_ONE_CARD = re.compile(r"(?<![\w♠♣♦♥])(?:[7-9]|10|[AKQJ])[♠♣♦♥]")
_ONE_SUIT = re.compile(r"[♠♣♦♥](?:10|[7-9AKQJ])(?![\w♠♣♦♥])(?: (?:10|[7-9AKQJ])(?![\w♠♣♦♥]))*")


def rank_text(card: int, ranks: str = "en") -> str:
    """One card as a player reads it: ``A♠``, or with ``ranks="ru"`` ``Т♠``.

    >>> rank_text(Card.parse("A♠"), "ru"), rank_text(Card.parse("10♥"), "ru"), rank_text(Card.parse("Q♦"))
    ('Т♠', '10♥', 'Q♦')
    """
    c = Card(card)
    rank = c & 7
    letter = _PICTURE_LETTERS["ru" if ranks == "ru" else "en"][rank - 4] if rank >= 4 else RANK_NAMES[rank]
    return letter + SUIT_SYMBOLS[c >> 3]


def with_ranks(text: str, ranks: str = "en") -> str:
    """``text`` with every card in it (``A♠``, a hand ``♠A K 10``) written in the rank letters of
    ``ranks`` — the one place the Russian letters replace A K Q J for display; words are left alone.

    >>> with_ranks("Лёг: ♠A K 10 ♥Q J; ход A♣, потом 10♦", "ru")
    'Лёг: ♠Т К 10 ♥Д В; ход Т♣, потом 10♦'
    >>> with_ranks("Kodeks 3.3.8: K♠", "ru"), with_ranks("A♠", "en")
    ('Kodeks 3.3.8: К♠', 'A♠')
    """
    if ranks != "ru" or not text:
        return text
    text = _ONE_CARD.sub(lambda m: m.group(0).translate(_TO_RU), text)
    return _ONE_SUIT.sub(lambda m: m.group(0).translate(_TO_RU), text)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, in either of two forms.

    Each card on its own (``A♥ 10♠ TS``) or grouped by suit, the suit first
    (``♠A 10 7 ♥K``); a suit symbol alone starts a group.  ``-`` is an empty hand.

    >>> [str(c) for c in parse_cards("♠7 8 ♦A, KH")]
    ['7♠', '8♠', 'A♦', 'K♥']
    """
    if not isinstance(text, str):
        raise CardError(f"cards: give text such as 'A♥ 10♠', not {type(text).__name__} {text!r}")
    out: list[Card] = []
    group: int | None = None
    for raw in text.replace(",", " ").split():
        if raw == "-":
            continue
        first = raw[0].lower()
        if first in "♠♣♦♥" or (len(raw) > 1 and first in "scdh" and raw[1:].lower() in _RANK_WORDS):
            # A suit prefix: "♠A", "♠", "SA" (letter form only when unambiguous).
            group = SUIT_WORDS[first]
            rest = raw[1:]
            if not rest:
                continue
            rank = _RANK_WORDS.get(rest.lower())
            if rank is None:
                raise CardError(f"cannot read {raw!r}: unknown rank {rest!r}")
            out.append(_CARDS[group * 8 + rank])
            continue
        rank = _RANK_WORDS.get(raw.lower())
        if rank is not None and group is not None:
            out.append(_CARDS[group * 8 + rank])
            continue
        out.append(Card.parse(raw))
    return tuple(out)


def parse_hand(text: str) -> int:
    """Parse cards (see :func:`parse_cards`) into a mask; duplicates are an error."""
    return mask_of(parse_cards(text))
