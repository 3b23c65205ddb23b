"""Scoring one deal: check a :class:`DealResult` and write it on the sheet (rules.md §9.2).

>>> from preferans.actions import Contract
>>> from preferans.engine.result import DealKind, DealResult, DefenceCall as D
>>> r = DealResult(DealKind.GAME, 3, dealer=2, declarer=0, contract=Contract(6, 3),
...                defence={1: D.WHIST, 2: D.WHIST}, tricks={0: 6, 1: 2, 2: 2})
>>> [tuple(e) for e in score_deal(r, Rules())]   # rules.md §12.2 C1
[('pool', 0, 2, -1, 'game'), ('whists', 1, 4, 0, 'whist'), ('whists', 2, 4, 0, 'whist')]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction

from ..actions import Action, Contract
from ..engine.result import DealKind, DealResult, DefenceCall
from ..errors import ScoreError
from ..i18n import Call, Msg
from ..rules import Rules
from ..seats import DUMMY, active_seats, defenders_of
from .allpass import score_all_pass
from .contract_deal import score_game, score_misere
from .settlement import entries_net
from .sheet import Amount, Entry

__all__ = ["check_result", "deal_label", "deal_net", "penalty_from_entries", "score_deal"]


def score_deal(
    result: DealResult, rules: Rules, *, raspas_step: int = 1, bomb: int = 1, check: bool = True
) -> list[Entry]:
    """The sheet lines one deal writes.

    ``raspas_step`` is the all-pass's place in its series (Kodeks 3.7.4);
    ``bomb`` is the declarer's bomb coefficient (classic, Kodeks 3.3.19), which
    multiplies with the deal's own ``multiplier`` (dark game).  Raises
    :class:`~preferans.errors.ScoreError` for an impossible outcome.
    """
    if check:
        check_result(result, rules)
    kind = result.kind
    if kind is DealKind.SHEET:
        return [Entry(c, p, _whole(a), on, "sheet") for c, p, a, on in result.sheet]
    if kind not in _REGULAR:
        return _irregular(result)
    if kind is DealKind.ALL_PASS:
        return score_all_pass(result, rules, raspas_step)
    coeff = result.multiplier * bomb  # rules.md §9.1: V × coeff (dark ×2, bomb ×2^k)
    if kind is DealKind.MISERE:
        return score_misere(result, rules, coeff)
    return score_game(result, rules, coeff)


_REGULAR = frozenset((DealKind.GAME, DealKind.NOT_PLAYED, DealKind.MISERE, DealKind.ALL_PASS))


def _whole(a: Fraction) -> Amount:
    return a.numerator if a.denominator == 1 else a


def _irregular(result: DealResult) -> list[Entry]:
    """A void deal writes nothing (seed-002 p.12); an exposed talon writes the assessed
    whists of each player on the offender (Kodeks 3.3.16.3, E-S1)."""
    if result.kind is DealKind.VOID:
        return []
    offender = result.offender
    if offender is None:
        return []
    out = []
    for seat, amount in sorted(result.penalty.items()):
        a = Fraction(amount)
        if a:
            whole: Amount = a.numerator if a.denominator == 1 else a
            out.append(Entry("whists", seat, whole, offender, "penalty"))
    return out


def penalty_from_entries(result: DealResult, entries: Sequence[Entry]) -> DealResult:
    """A ``PENALTY`` deal's result with the whists its sheet lines write on the offender.

    The Kodeks 3.3.16.3 assessment needs the solver
    (:func:`preferans.rulings.assessment.assess_exposed_talon`); a record keeps
    its outcome as the deal's score lines, so a record replays the sheet from
    them without searching again.  Raises :class:`ScoreError` when the lines are
    not whists of other players on the offender.
    """
    if result.kind is not DealKind.PENALTY:
        return result
    penalty: dict[int, Fraction] = {}
    for e in entries:
        if e.column != "whists" or e.on != result.offender or e.player == result.offender or e.why != "penalty":
            raise ScoreError(
                "penalty: a deal ended by an exposed talon (Kodeks 3.3.16.3) writes only whists "
                f"of the other players on the offender (seat {result.offender}), not {e}"
            )
        penalty[e.player] = penalty.get(e.player, Fraction(0)) + Fraction(e.amount)
    return dataclasses.replace(result, penalty=penalty)


def deal_net(
    result: DealResult, rules: Rules, *, raspas_step: int = 1, bomb: int = 1, check: bool = True
) -> list[Fraction]:
    """One deal's worth in whists to each player (rules.md §11.2), without a pulka around it
    (no help or closing) — a reward for bots and environments.  Sums to exactly zero.

    >>> from preferans.actions import Contract
    >>> from preferans.engine.result import DealKind, DealResult
    >>> r = DealResult(DealKind.ALL_PASS, 3, dealer=0, tricks={0: 0, 1: 4, 2: 6})
    >>> [str(x) for x in deal_net(r, Rules())]   # rules.md §12.2 C17
    ['40', '-10', '-30']
    """
    entries = score_deal(result, rules, raspas_step=raspas_step, bomb=bomb, check=check)
    return entries_net(entries, result.players, rules)


def _fail(msg: str | Msg) -> ScoreError:
    return ScoreError(msg)


def check_result(result: DealResult, rules: Rules) -> None:
    """Raise :class:`ScoreError` naming the field when ``result`` cannot be scored."""
    _check_table(result)
    if result.kind is DealKind.SHEET:
        _check_sheet(result)
        return
    if result.kind not in _REGULAR:
        _check_irregular(result)
        return
    played = _check_tricks(result, rules)
    if result.kind is DealKind.ALL_PASS:
        if result.declarer is not None or result.contract is not None:
            raise _fail("all-pass: an all-pass deal has no declarer and no contract")
        return
    defenders = _check_declarer(result)
    if result.kind is DealKind.MISERE:
        _check_misere(result, rules)
    else:
        _check_game(result, rules, defenders, played)


def _check_table(result: DealResult) -> None:
    """Players, dealer and coefficient."""
    n = result.players
    if n not in (2, 3, 4):
        raise _fail(f"players: 2 (гусарик), 3 or 4 players play preferans, not {n}")
    if not 0 <= result.dealer < n:
        raise _fail(f"dealer: seat {result.dealer} is not at a table of {n}")
    if result.multiplier < 1:
        raise _fail(f"multiplier: must be at least 1, not {result.multiplier}")


def _check_sheet(result: DealResult) -> None:
    """Lines written by hand: a known column, players at the table, whists on another."""
    n = result.players
    if not result.sheet:
        raise _fail("sheet: write at least one line, e.g. A pool +3")
    for column, player, amount, on in result.sheet:
        if column not in ("pool", "mountain", "whists"):
            raise _fail(f"sheet: the columns are pool, mountain and whists, not {column!r}")
        if not 0 <= player < n:
            raise _fail(f"sheet: seat {player} is not at a table of {n}")
        if column == "whists" and not (0 <= on < n and on != player):
            raise _fail(f"sheet: whists are written on another player, not seat {on}")
        if column != "whists" and on != -1:
            raise _fail(f"sheet: only whists are written on someone ({column} of seat {player})")
        if not amount:
            raise _fail("sheet: a line writes something, not 0")


def _check_irregular(result: DealResult) -> None:
    """A void deal needs nothing; a penalty deal an offender and whists on him (Kodeks 3.3.16.3)."""
    if result.kind is not DealKind.PENALTY:
        return
    n = result.players
    offender = result.offender
    if offender is None or not 0 <= offender < n:
        raise _fail("offender: a penalty deal needs the offender's seat (Kodeks 3.3.16.3)")
    for seat, amount in result.penalty.items():
        if not 0 <= seat < n or seat == offender or amount < 0:
            raise _fail(f"penalty: seat {seat} cannot write {amount} on the offender")


def _check_tricks(result: DealResult, rules: Rules) -> bool:
    """The tricks of the card holders (and the 4-handed dealer's talon tricks); returns
    whether the deal was played out, so that they must sum to ten."""
    n, kind, tricks = result.players, result.kind, result.tricks
    active = active_seats(result.dealer, n)
    for s, t in tricks.items():
        if s not in active:
            raise _fail(f"tricks: seat {s} held no cards (the 4-handed dealer sits out)")
        if not 0 <= t <= 10:
            raise _fail(f"tricks: seat {s} took {t}; a player takes 0 to 10 tricks")
    played = kind is not DealKind.NOT_PLAYED and not (
        kind is DealKind.GAME and (result.conceded == 3 or (result.conceded == 10 and not tricks))
    )
    if n == 2 and kind is DealKind.ALL_PASS:
        # Kodeks 3.7.6.4 (rules.md §16): the talon and the dummy take no part — ten tricks of two.
        if tricks.get(DUMMY, 0):
            raise _fail("tricks: the dummy takes no part in a two-handed all-pass")
        if sum(tricks.values()) != 10:
            raise _fail(f"tricks: the two players' tricks sum to 10, not {sum(tricks.values())}")
        return True
    if kind is DealKind.MISERE and len(tricks) < 3:
        # Only the declarer's tricks matter on a misère (rules.md §7); the rest may be omitted.
        if result.declarer not in tricks:
            raise _fail("tricks: give the misère declarer's tricks")
        if sum(tricks.values()) > 10:
            raise _fail("tricks: more than 10 tricks in a deal")
        played = False
    if played:
        total = sum(tricks.values()) + (result.dealer_tricks if n == 4 else 0)
        if total != 10 or len(tricks) != 3:
            got = ", ".join(f"{s}: {t}" for s, t in sorted(tricks.items())) or "none"
            raise _fail(
                f"tricks: give the tricks of all three active players, summing to 10 (got {got})"
            )
    if result.dealer_tricks:
        if kind is not DealKind.ALL_PASS or n != 4:
            raise _fail(
                "dealer_tricks: only the 4-handed dealer takes talon tricks on all-pass "
                "(Kodeks 3.7.6.1)"
            )
        if rules.raspas_talon_for(4) != "participates":
            raise _fail(
                f"dealer_tricks: with raspas_talon={rules.raspas_talon_for(4)!r} "
                "the talon takes no trick (Kodeks 3.7.6)"
            )
    return played


def _check_declarer(result: DealResult) -> tuple[int, int]:
    """A declarer who held cards, a contract, and defence calls by his opponents only."""
    decl, contract = result.declarer, result.contract
    if decl is None or contract is None:
        raise _fail(f"{result.kind.value}: a declarer and a contract are needed")
    active = active_seats(result.dealer, result.players)
    if decl not in active:
        raise _fail(f"declarer: seat {decl} is the dealer sitting out; he cannot declare")
    if result.players == 2 and decl == DUMMY:
        raise _fail("declarer: the dummy never bids (rules.md §16)")
    if result.players == 2 and result.defence.get(DUMMY, DefenceCall.PASS) is not DefenceCall.PASS:
        raise _fail("defence: the dummy always passes (rules.md §16)")
    defenders = defenders_of(active, decl)
    for s in result.defence:
        if s not in defenders:
            raise _fail(f"defence: seat {s} is not one of the declarer's opponents {defenders}")
    return defenders


def _check_misere(result: DealResult, rules: Rules) -> None:
    assert result.contract is not None
    if not result.contract.is_misere:
        raise _fail(Msg("contract: a misère deal needs the misère contract, not {contract}",
                        contract=Call(str(result.contract))))  # fmt: skip
    if result.defence:
        raise _fail(Msg("defence: nobody whists on a misère (Kodeks 3.8.2)"))
    if result.misere_half:
        if result.players != 4:
            raise _fail(Msg("half_with_dealer: misère «пополам» needs a 4-handed dealer (Kodeks 3.6.9)"))
        if not rules.misere_half_with_dealer:
            raise _fail(Msg("half_with_dealer: misere_half_with_dealer is off in these rules"))


def _check_game(result: DealResult, rules: Rules, defenders: tuple[int, int], played: bool) -> None:
    """A trick game: its concession, check, half-whist or whists fit the rules."""
    kind, contract, decl = result.kind, result.contract, result.declarer
    assert contract is not None and decl is not None
    if contract.is_misere:
        raise _fail(Msg("kind: a misère must be scored as kind 'misere', not {kind}", kind=kind.value))
    if contract.totus and (not rules.totus or contract.level != 10):
        raise _fail(Msg("contract: a totus is a 10, played only with totus=true (rules.md §3.1)"))
    if result.talon_shown_by_dealer and (result.players != 4 or not rules.dealer_shown_talon_whists):
        raise _fail(Msg("talon_shown_by_dealer: only a 4-handed dealer shows the talon, "
                        "with dealer_shown_talon_whists > 0"))
    if result.misere_half:
        raise _fail(Msg("half_with_dealer: only a misère is played «пополам» (Kodeks 3.6.9)"))
    if result.conceded not in (0, 3, 10):
        raise _fail(Msg("conceded: 3 («без трёх») or 10 («без всех»), not {count}", count=result.conceded))
    if result.conceded == 3:
        if not rules.bez_trekh:
            raise _fail(Msg("conceded: «без трёх» is not allowed unless bez_trekh=true (Kodeks 3.5.4)"))
        if contract.level > rules.bez_trekh_max_level:
            raise _fail(Msg("conceded: «без трёх» is said on games up to {top} (bez_trekh_max_level), not on a "
                            "{level}", top=rules.bez_trekh_max_level, level=contract.level))  # fmt: skip
        return
    if result.conceded == 10:
        if played and result.tricks.get(decl, 0) != 0:
            raise _fail(Msg("conceded: «без всех» means the declarer took no trick (Kodeks 3.5.4)"))
        return
    if result.ten_checked:
        if contract.level != 10:
            raise _fail(Msg("ten_checked: only a 10-game is checked (rules.md §5.2)"))
        if result.defence:
            raise _fail(Msg("defence: a checked 10-game is not whisted (seed-002 p.26)"))
        if kind is not DealKind.GAME:
            raise _fail(Msg("ten_checked: a checked 10-game is laid out and counted; give the tricks"))
        return
    calls = [result.defence.get(d, DefenceCall.PASS) for d in defenders]
    if result.dealer_whist:
        _check_dealer_whist(result, rules, calls)
    if DefenceCall.HALF in calls:
        _check_half_whist(result, rules, defenders, calls)
        return
    whists = calls.count(DefenceCall.WHIST)
    if kind is DealKind.NOT_PLAYED and whists == 2:
        raise _fail(Msg("tricks: both opponents whisted, so the game was played; give the tricks"))
    if kind is DealKind.NOT_PLAYED and result.za_svoimi and whists != 1:
        raise _fail(Msg("za_svoimi: «за своими» needs exactly one whister (seed-002 p.27)"))


def _check_dealer_whist(result: DealResult, rules: Rules, calls: list[DefenceCall]) -> None:
    """dealer_whist: the 4-handed dealer whisted a game both defenders passed (a 6 or a 7) or
    half-whisted, and it was played (rules.md §5.6)."""
    assert result.contract is not None
    if result.players != 4 or not rules.dealer_whist:
        raise _fail(Msg("dealer_whist: only a 4-handed dealer whists, with dealer_whist=true"))
    if DefenceCall.WHIST in calls:
        raise _fail(Msg("dealer_whist: the dealer whists only a game both defenders passed or half-whisted"))
    if DefenceCall.HALF not in calls and result.contract.level not in (6, 7):
        raise _fail(Msg("dealer_whist: the dealer whists a passed 6 or 7, not a {level}",
                        level=result.contract.level))  # fmt: skip
    if result.kind is not DealKind.GAME:
        raise _fail(Msg("dealer_whist: a game the dealer whisted is played; give the tricks"))


def _check_half_whist(
    result: DealResult, rules: Rules, defenders: tuple[int, int], calls: list[DefenceCall]
) -> None:
    """Полвиста: said by the second opponent after the first passed, on an allowed level."""
    assert result.contract is not None
    if result.players == 2 and not rules.half_whist_two_handed:
        raise _fail(Msg("defence: no half-whist in гусарик unless half_whist_two_handed=true (rules.md §16)"))
    if result.kind is not DealKind.NOT_PLAYED and not (rules.half_whist_played or result.dealer_whist):
        raise _fail(Msg("defence: after an accepted half-whist the game is not played (rules.md §5.4; "
                        "half_whist_played=true plays it)"))
    second = calls[0] is DefenceCall.PASS and calls[1] is DefenceCall.HALF
    # гусарик: the live defender half-whists wherever he sits; the dummy's pass stands for the other.
    either = rules.first_defender_half_whist or result.players == 2
    first = calls[0] is DefenceCall.HALF and calls[1] is DefenceCall.PASS and either
    if not (second or first):
        raise _fail(Msg("defence: half-whist is said by the second opponent after the first passed "
                        "(the first opponent is seat {seat}); write pass then half "
                        "(or, with first_defender_half_whist=true, half then pass)", seat=defenders[0]))
    if result.contract.level not in rules.half_whist_levels:
        levels = ", ".join(str(x) for x in sorted(rules.half_whist_levels)) or "none"
        raise _fail(Msg("defence: half-whist is allowed on levels {levels}, not {level}", levels=levels,
                        level=result.contract.level))  # fmt: skip


def deal_label(result: DealResult, names: tuple[str, ...]) -> Msg:
    """A short summary of a deal: ``A 7♠ −1``, ``all-pass A0 B4 C6``, ``B misère clean``.

    A :class:`~preferans.i18n.Msg`: English as a ``str``, in Russian with
    ``text(label, "ru")`` (``B 7♠ без 1``, ``распасы A0 B4 C6``).  Names with a
    space or a final digit keep apart from their counts: ``all-pass Ann: 7, Bot 2: 3, Bot 3: 0``.
    """
    if result.kind is DealKind.VOID:
        return Msg("void deal (re-dealt)")
    if result.kind is DealKind.SHEET:
        return Msg("written by hand")
    if result.kind is DealKind.PENALTY:
        offender = result.offender
        return Msg("penalty on {name}", name=names[offender]) if offender is not None else Msg("penalty")
    if result.kind is DealKind.ALL_PASS:
        counts = [(names[s], result.tricks.get(s, 0)) for s in sorted(result.active) if s < len(names)]
        if result.players == 4 and result.dealer_tricks:
            counts.append((names[result.dealer], result.dealer_tricks))
        # The score keeper's own notation, ``A0 B4 C6``, while the names allow it; a name with a
        # space or ending in a digit («Bot 2») would run into its count («Bot 23»): then ``Bot 2: 3``.
        if all(n and " " not in n and not n[-1].isdigit() for n, _ in counts):
            return Msg("all-pass {tricks}", tricks=" ".join(f"{n}{k}" for n, k in counts))
        return Msg("all-pass {tricks}", tricks=", ".join(f"{n}: {k}" for n, k in counts))
    assert result.declarer is not None and result.contract is not None
    who = names[result.declarer]
    c = result.contract
    if result.kind is DealKind.MISERE:
        t = result.tricks.get(result.declarer, 0)
        label = (Msg("{who} misère clean", who=who) if t == 0
                 else Msg("{who} misère caught {n}", "{who} misère caught {n}", n=t, who=who))  # fmt: skip
        return Msg("{label} ½", label=label) if result.misere_half else label
    # A game without the talon is named as its bid, a totus after its 10 (rules.md §3.1).
    contract: Call | Msg = Call(str(Action.bid(Contract(c.level, c.strain))))
    if c.totus:
        contract = Msg("{contract} totus", contract=contract)
    if result.conceded == 3:
        return Msg("{who} {contract} без трёх", who=who, contract=contract)
    if result.kind is DealKind.NOT_PLAYED:
        calls = [result.defence.get(d, DefenceCall.PASS) for d in result.defenders]
        if DefenceCall.HALF in calls:
            return Msg("{who} {contract} half-whist", who=who, contract=contract)
        if DefenceCall.WHIST in calls:
            return Msg("{who} {contract} за своими", who=who, contract=contract)
        return Msg("{who} {contract} not whisted", who=who, contract=contract)
    dt = result.tricks.get(result.declarer, 0)
    if dt >= c.level:
        return Msg("{who} {contract} made", who=who, contract=contract)
    return Msg("{who} {contract} −{n}", "{who} {contract} −{n}", n=c.level - dt, who=who, contract=contract)
