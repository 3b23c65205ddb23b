"""Table conventions: one frozen :class:`Rules` value and its named presets.

Every option a company must agree on before the first deal is a field here,
documented in :data:`OPTION_DOCS` (its meaning, who plays which value, its
source), so that an agreement reads the same in ``docs/rules.md`` §13, in
``preferans rules``, in code and on the command line
(``--set raspas_progression=geometric``).

>>> r = Rules.preset("sochi")
>>> r.jump_bids, r.ten_mode, r.k_pool
(True, 'checked', 10)
>>> Rules.preset("kodeks").jump_bids
False
>>> r.replace(pool_target=30).pool_target
30
>>> Rules.from_dict(r.to_dict()) == r
True
>>> r.replace(rounding="nearest")
Traceback (most recent call last):
...
preferans.errors.RulesError: rounding: 'nearest' is not one of 'exact', 'half_up', 'kodeks_shift', 'per_transfer'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, ClassVar, Literal, NamedTuple, get_args, get_type_hints

from .errors import RulesError
from .i18n import Msg
from .option_words import Option, OptionValue

__all__ = ["CHOICES", "OPTION_DOCS", "PRESETS", "OptionDoc", "Rules"]

# The choice-valued fields: each a Literal type, so mypy checks every value the
# code compares a field with (``--strict`` includes strict equality).
HoldRule = Literal["senior_only", "first_hand_only", "after_pass_any", "via_passed_player"]
MisereRank = Literal["after_8nt", "top"]
TenMode = Literal["checked", "whisted", "checked_remiz_only"]
OpenTiming = Literal["after_declarer_card", "after_first_lead", "before_first_lead"]
RaspasTalon = Literal["auto", "suit_only", "participates", "unused"]
TalonUse = Literal["suit_only", "participates", "unused"]
ReportConsent = Literal["offender", "offender_or_others"]
LoneFailStyle = Literal["greedy", "gentleman"]
LoneQuota = Literal["full", "half"]
Norm1BothFail = Literal["both_full", "half_each", "second"]
WhisterQuota = Literal["shared", "own", "own_last", "own_if_short"]
MountainShare = Literal["all", "others"]
RaspasScoring = Literal["mountain", "whists"]
RaspasProgression = Literal["arithmetic", "geometric", "none"]
RaspasZeroBonus = Literal["price", "one", "none"]
EndCondition = Literal["all_closed", "deals", "pool_sum", "agreement"]
DealerTalonWhists = Literal["none", "aces", "sure_tricks", "leningrad"]
Rounding = Literal["exact", "half_up", "kodeks_shift", "per_transfer"]
HelpTarget = Literal["choice", "lowest_pool", "next", "highest_pool"]
YesNo = Literal["yes", "no"]
MisereCatchers = Literal["each_own", "one_for_both"]


MAX_NAME = 64
"""Characters in a rules name (it is shown at the table and written in records)."""

MAX_NUMBER = 1_000_000
"""The largest number any option takes (prices, multipliers, limits)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A company's conventions (rules.md §13).  Build one with :meth:`preset`.

    Deal fields (used by :class:`preferans.Deal`) come first, then the scoring
    fields (used by :mod:`preferans.scoring` and :class:`preferans.Pulka`).
    """

    name: str = "sochi"

    # --- bidding (rules.md §3, Kodeks 3.3.8–3.3.19) -------------------------------
    jump_bids: bool = True  # Kodeks 3.3.8 forbids jumps; Benyakova p.18 allows them
    hold_rule: HoldRule = "senior_only"  # who may say здесь/мои (Kodeks 3.3.8, seed-002 p.19)
    misere_rank: MisereRank = "after_8nt"  # Kodeks 3.6.4; Benyakova p.17 puts misère on top
    misere_bidder_may_continue: bool = False  # Kodeks 3.3.9, 3.6.4: after misère only a pass
    without_talon_bids: bool = False  # 9/10 без прикупа, мизер без прикупа (seed-002 p.17)
    third_hand_takes_talon: bool = True  # Kodeks 3.3.15
    dark_bids: bool = False  # Kodeks 3.3.19: only by prior agreement (classic)
    bombs: bool = False  # Kodeks 3.3.19 a)
    bomb_limit: int = 8  # cap of the geometric escalation of dark passes (agreed)
    misere_half_with_dealer: bool = True  # Kodeks 3.6.9 (4 players)
    misere_half_dealer_sees_discard: bool = True  # Kodeks 3.6.6 «снос никому не показывается»: False
    misere_catchers: MisereCatchers = "each_own"  # «ловлю»/«доверяю»: one catcher may play both hands
    misere_winner_must_play_misere: bool = True  # rules.md §4.4 (common practice)
    totus: bool = False  # a dedicated 10-trick bid above misère (other programs)
    totus_bonus: int = 5  # pool points added to a made totus

    # --- declaration, whisting and play (rules.md §4–§6) -----------------------------
    ten_mode: TenMode = "checked"  # seed-002 p.26 checked; Kodeks table: whisted
    half_whist_levels: frozenset[int] = frozenset({6, 7})
    first_defender_half_whist: bool = False  # a whister left alone by a pass may fall back to half-whist
    first_defender_second_call: bool = False  # Leningrad engines: both passed, the first may still whist
    half_whist_played: bool = False  # the half-whister plays instead of writing half the quota
    dealer_whist: bool = False  # 4 players: the dealer may whist a 6 or 7 both defenders passed
    half_whist_two_handed: bool = False  # гусарик: half-whist allowed although the dummy cannot confirm
    open_timing: OpenTiming = "after_declarer_card"  # seed 002 p.28: «после первого хода играющего»
    za_svoimi: bool = False  # seed-002 p.27: lone whister writes his quota without play
    bez_trekh: bool = False  # «без трёх без вистов»; Kodeks 3.5.4: not applied
    bez_trekh_max_level: int = 10  # the highest level «без трёх» may be said on (programs: 7)
    concede_all: bool = False  # Kodeks 3.5.4: the declarer may admit «без всех»
    stalingrad: bool = False  # 6♠ must be whisted by both (common practice)
    raspas_talon: RaspasTalon = "auto"  # Kodeks 3.7.6; auto = suit_only (3p) / participates (4p)
    irregularity_reports: bool = False  # UIs offer "report an irregularity" (Kodeks 3.3.16–3.3.18)
    claims: bool = False  # UIs offer claims during play (issue 10)
    # Who makes a report about another player a fact at a table: the accused, or also all the others.
    report_consent: ReportConsent = "offender"

    # --- scoring of one deal (rules.md §9) ------------------------------------------
    game_values: tuple[int, ...] = (2, 4, 6, 8, 10)  # V(6) … V(10)
    whist_mult: int = 1  # whist price per defender's trick / V
    remiz_mult: int = 1  # declarer's mountain per undertrick / V
    pen_mult: Fraction = Fraction(1)  # whister's short trick / V (Leningrad: 1 = half of 2V)
    cons_mult: int = 1  # consolation per undertrick / V
    consolation_by_dealer: bool = True  # Kodeks 3.8.1.2: the 4-handed dealer writes it too
    lone_fail_style: LoneFailStyle = "greedy"  # жлобский / джентльменский
    lone_quota: LoneQuota = "full"
    norm1_both_fail: Norm1BothFail = "both_full"
    whister_quota: WhisterQuota = "shared"  # two whisters: the side's quota, or each his own share
    misere_pool: int = 10
    misere_trick: int = 10
    bez_trekh_consolation: YesNo = "yes"
    dealer_talon_whists: DealerTalonWhists = "none"  # «проданные тузы», seed-002 p.14
    dealer_shown_talon_whists: int = 0  # whist prices the declarer writes on a dealer who showed the talon

    # --- all-pass (rules.md §8, Kodeks 3.7) ---------------------------------------------
    raspas_scoring: RaspasScoring = "mountain"  # Kodeks 3.7.2.1 mountain; 3.7.2.2 whists (Rostov)
    raspas_price: int = 1  # price of a trick on the first all-pass of a series
    raspas_progression: RaspasProgression = "arithmetic"  # Kodeks 3.7.4
    raspas_limit: int = 3  # steps of the progression (Kodeks 3.7.4.3); 0 = unlimited
    raspas_whists_per_trick: int = 5  # Rostov (Kodeks 3.7.2.2)
    raspas_zero_bonus: RaspasZeroBonus = "price"  # Kodeks 3.7.2.1: price; 3.7.2.2: one
    dealer_zero_bonus: bool = False  # Kodeks 3.7.6.2 (Rostov: True)
    raspas_exit_levels: tuple[int, ...] = (6, 6, 6)
    exit_requires_whisted_game: bool = False
    exit_requires_made_game: bool = False  # only a game made breaks the all-pass series
    misere_ends_series: bool = True
    amnesty: bool = True  # Kodeks 3.7.3
    deal_moves_after_raspas: bool = True  # Kodeks 3.7.7: the deal moves on; False is a house agreement

    # --- the pulka and settlement (rules.md §10–§11) ---------------------------------------
    pool_target: int = 20
    k_pool: int = 10
    k_mount: Fraction = Fraction(10)  # exact fractions allowed (40/3)
    mountain_shared_among: MountainShare = "all"  # each mountain paid to all n, or to the n − 1 others
    mountain_divisible: bool = True  # гусарик: False is «неделимая гора» (Kodeks 4.1.1(в))
    help_whists_per_point: int = 10
    help_target: HelpTarget = "lowest_pool"
    writeoff_mountain_mult: int = 1
    surplus_lost: bool = False  # what is left after helping and writing off is lost, not kept
    end_condition: EndCondition = "all_closed"
    max_deals: int = 0  # for end_condition="deals"
    rounding: Rounding = "exact"

    PRESET_NAMES: ClassVar[tuple[str, ...]] = ("sochi", "leningrad", "rostov", "classic", "kodeks")

    def __post_init__(self) -> None:
        self._validate()

    # -- construction -----------------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named preset: ``sochi``, ``leningrad``, ``rostov``, ``classic``, ``kodeks``."""
        try:
            return PRESETS[name.lower()]
        except KeyError:
            raise RulesError(
                f"unknown rules preset {name!r}: choose one of {', '.join(cls.PRESET_NAMES)}"
            ) from None

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like a new value)."""
        unknown = [k for k in changes if k not in _FIELD_NAMES]
        if unknown:
            raise RulesError(_unknown_message(unknown[0]))
        return dataclasses.replace(self, **{k: _coerce(k, v) for k, v in changes.items()})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, base: Rules | None = None) -> Rules:
        """Build from a mapping of field names (missing fields come from ``base``,
        or from the preset named by ``data["name"]`` when that is a preset)."""
        if not isinstance(data, Mapping):
            raise RulesError(f"rules: give a mapping of field names to values, not {type(data).__name__}")
        if base is None:
            name = str(data.get("name", "sochi"))
            base = PRESETS.get(name, PRESETS["sochi"])
        return base.replace(**dict(data))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values (sets become sorted lists, fractions strings)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, frozenset):
                v = sorted(v)
            elif isinstance(v, tuple):
                v = list(v)
            elif isinstance(v, Fraction):
                v = str(v) if v.denominator != 1 else int(v)
            out[f.name] = v
        return out

    def set_from_text(self, assignment: str) -> Rules:
        """Apply one ``FIELD=VALUE`` assignment as typed on a command line."""
        key, sep, value = assignment.partition("=")
        key = key.strip()
        if not sep:
            raise RulesError(f"expected FIELD=VALUE, got {assignment!r}")
        if key not in _FIELD_NAMES:
            raise RulesError(_unknown_message(key))
        return self.replace(**{key: value.strip()})

    # -- derived values ----------------------------------------------------------------
    def raspas_talon_for(self, players: int) -> TalonUse:
        """Talon use on all-pass for a table of ``players`` (Kodeks 3.7.6).

        ``auto`` is ``suit_only`` with 3 players and ``participates`` with 4, and
        ``unused`` when the all-pass is scored on whists (Kodeks 3.7.6.2) or two play
        (3.7.6.4).
        """
        self.check_players(players)
        if self.raspas_talon != "auto":
            return self.raspas_talon
        if self.raspas_scoring == "whists" or players == 2:
            return "unused"  # Rostov (3.7.6.2); two players never open it (3.7.6.4)
        return "suit_only" if players == 3 else "participates"

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` if a table of ``players`` cannot play by these rules.

        >>> Rules(raspas_talon="participates").check_players(3)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        preferans.errors.RulesError: raspas_talon='participates' needs 4 players: ... (Kodeks 3.7.6.3), ...
        """
        if players == 2 and self.raspas_talon in ("suit_only", "participates"):
            raise RulesError(Msg(
                "{option}={value!r}: in гусарик the talon is not opened on all-pass (Kodeks 3.7.6.4, rules.md §16); "
                "use 'auto' or 'unused'", option=Option("raspas_talon"), value=OptionValue("raspas_talon",
                                                                                          self.raspas_talon)))
        if players == 3 and self.raspas_talon == "participates":
            raise RulesError(Msg(
                "{option}='participates' needs 4 players: the talon cards take tricks as the "
                "sitting-out dealer's (Kodeks 3.7.6.1); with 3 players a talon card only names the suit "
                "(Kodeks 3.7.6.3), use 'suit_only' or 'auto'", option=Option("raspas_talon")))

    def raspas_price_at(self, step: int) -> int:
        """Price of a trick on the ``step``-th consecutive all-pass (1-based), Kodeks 3.7.4."""
        if step < 1:
            raise RulesError(f"all-pass step must be at least 1, not {step}")
        k = step if self.raspas_limit == 0 else min(step, self.raspas_limit)
        if self.raspas_progression == "arithmetic":
            return self.raspas_price * k
        if self.raspas_progression == "geometric":
            return self.raspas_price * (1 << (k - 1))
        return self.raspas_price

    @property
    def tens_checked(self) -> bool:
        """Is a 10-game checked rather than whisted (``ten_mode``, seed 002 p.26)?"""
        return self.ten_mode != "whisted"

    def mountain_factor(self, players: int) -> Fraction:
        """Whists a mountain point costs in the closed formula at a table of ``players``:
        ``k_mount``, or ``k_mount·n/(n − 1)`` when the n − 1 others share it (rules.md §11.2).

        >>> Rules().mountain_factor(4), Rules(mountain_shared_among="others").mountain_factor(4)
        (Fraction(10, 1), Fraction(40, 3))
        """
        k = Fraction(self.k_mount)
        if players > 1 and (self.mountain_shared_among == "others" or (players == 2 and not self.mountain_divisible)):
            return k * players / (players - 1)  # at two, the indivisible mountain: all of it to the other
        return k

    def game_value(self, level: int) -> int:
        """V(level): the value of a game of that level (rules.md §9)."""
        return self.game_values[level - 6]

    # -- validation ---------------------------------------------------------------------
    def _validate(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in CHOICES and v not in CHOICES[f.name]:
                allowed = ", ".join(repr(c) for c in CHOICES[f.name])
                raise RulesError(Msg("{option}: {value} is not one of {allowed}", option=Option(f.name),
                                     value=repr(v), allowed=allowed))
        if not isinstance(self.name, str) or not 1 <= len(self.name) <= MAX_NAME or not self.name.isprintable():
            raise RulesError(f"name: 1 to {MAX_NAME} printable characters, not {str(self.name)[:40]!r}")
        for f in fields(self):  # sane sizes: a value past these is a typo (or an attack on a server)
            v = getattr(self, f.name)
            if isinstance(v, int | Fraction) and not isinstance(v, bool) and abs(v) > MAX_NUMBER:  # type: ignore[operator]
                raise RulesError(Msg("{option}: at most {limit}, not {value}", option=Option(f.name),
                                     limit=f"{MAX_NUMBER:,}", value=str(v)[:20]))
            if isinstance(v, Fraction) and v.denominator > 1000:
                raise RulesError(Msg("{option}: a fraction with a denominator up to 1000, not {value}",
                                     option=Option(f.name), value=str(v)))
            if isinstance(v, tuple | frozenset) and len(v) > 10:
                raise RulesError(Msg("{option}: at most 10 values, not {count}", option=Option(f.name), count=len(v)))
        if len(self.game_values) != 5 or any(v <= 0 for v in self.game_values):
            raise RulesError(Msg("{option}: give five positive values, for levels 6 to 10",
                                 option=Option("game_values")))
        if not self.half_whist_levels <= {6, 7, 8, 9, 10}:
            raise RulesError(Msg("{option}: levels must be 6..10, not {value}", option=Option("half_whist_levels"),
                                 value=str(sorted(self.half_whist_levels))))
        if not self.raspas_exit_levels or any(not 6 <= x <= 10 for x in self.raspas_exit_levels):
            raise RulesError(Msg("{option}: give one or more levels from 6 to 10",
                                 option=Option("raspas_exit_levels")))
        if self.bombs and not self.dark_bids:
            raise RulesError(Msg("{option}: bombs are earned by dark passes, so they need {dark}=True (Kodeks 3.3.19)",
                                 option=Option("bombs"), dark=Option("dark_bids")))
        if self.bomb_limit < 2 or self.bomb_limit & (self.bomb_limit - 1):
            raise RulesError(Msg("{option}: must be a power of two ≥ 2, not {value}", option=Option("bomb_limit"),
                                 value=self.bomb_limit))
        if not 6 <= self.bez_trekh_max_level <= 10:
            raise RulesError(Msg("{option}: a level 6..10, not {value}", option=Option("bez_trekh_max_level"),
                                 value=self.bez_trekh_max_level))
        if self.dealer_shown_talon_whists < 0 or self.totus_bonus < 0:
            raise RulesError(Msg("{option} and {other} must not be negative",
                                 option=Option("dealer_shown_talon_whists"), other=Option("totus_bonus")))
        for name in ("pool_target", "k_pool", "k_mount", "raspas_price", "misere_pool",
                     "misere_trick", "raspas_whists_per_trick", "help_whists_per_point"):
            if getattr(self, name) <= 0:
                raise RulesError(Msg("{option}: must be positive, not {value}", option=Option(name),
                                     value=str(getattr(self, name))))
        for name in ("whist_mult", "remiz_mult", "cons_mult", "writeoff_mountain_mult"):
            if getattr(self, name) < 0:
                raise RulesError(Msg("{option}: must not be negative, not {value}", option=Option(name),
                                     value=str(getattr(self, name))))
        if self.pen_mult < 0:
            raise RulesError(Msg("{option}: must not be negative, not {value}", option=Option("pen_mult"),
                                 value=str(self.pen_mult)))
        if self.raspas_limit < 0 or self.max_deals < 0:
            raise RulesError(Msg("{option} and {other} must not be negative", option=Option("raspas_limit"),
                                 other=Option("max_deals")))
        if self.end_condition == "deals" and self.max_deals == 0:
            raise RulesError(Msg("{option}='deals' needs {other} > 0", option=Option("end_condition"),
                                 other=Option("max_deals")))
        if self.raspas_scoring == "whists" and self.raspas_talon in ("suit_only", "participates"):
            # Kodeks 3.7.6.2: on whists the talon takes no part in the play.
            raise RulesError(
                "raspas_talon: all-pass scored on whists (Rostov) plays without the talon "
                "(Kodeks 3.7.6.2); use raspas_talon='unused' or 'auto'"
            )


_FIELD_NAMES = frozenset(f.name for f in fields(Rules))
_FIELD_TYPES = {f.name: f.type for f in fields(Rules)}
_HINTS = get_type_hints(Rules)
# Allowed values of each choice field, read from its Literal type.
CHOICES: dict[str, tuple[str, ...]] = {
    name: get_args(hint) for name, hint in _HINTS.items() if getattr(hint, "__origin__", None) is Literal
}


def _unknown_message(key: str) -> str:
    import difflib

    close = difflib.get_close_matches(key, sorted(_FIELD_NAMES), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown rules field {key!r}{hint}"


def _coerce(name: str, value: Any) -> Any:
    """Turn command-line and JSON values into the field's type."""
    typ = str(_FIELD_TYPES[name])
    try:
        if typ == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
                return False
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            raise ValueError
        if typ == "int":
            if isinstance(value, bool):
                raise ValueError
            if isinstance(value, (int, str)):
                return int(value)
            if isinstance(value, float) and value.is_integer():
                return int(value)
            raise ValueError
        if typ == "Fraction":
            if isinstance(value, bool) or (isinstance(value, str) and not _FRACTION_TEXT.fullmatch(value)):
                raise ValueError  # no exponents: "1e999999999" would take forever to build
            return Fraction(value)
        if typ.startswith("frozenset"):
            return frozenset(_int_items(value))
        if typ.startswith("tuple"):
            return tuple(_int_items(value))
        if typ == "str" or name in CHOICES:
            if not isinstance(value, str):
                raise ValueError
            return value
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        raise RulesError(Msg("{option}: cannot use {value}, expected {type}", option=Option(name),
                             value=repr(value), type=_KIND_WORDS.get(typ.split("[")[0], typ))) from None
    return value


_KIND_WORDS = {
    "bool": Msg("true or false"), "int": Msg("a whole number"), "Fraction": Msg("a number or a fraction such as 40/3"),
    "frozenset": Msg("numbers separated by spaces"), "tuple": Msg("numbers separated by spaces"),
}  # fmt: skip
"""What a field takes, in words, for the refusal of a value."""

_FRACTION_TEXT = re.compile(r"\s*-?\d{1,12}(?:\.\d{1,12}|/\d{1,12})?\s*")


def _int_items(value: Any) -> list[int]:
    if isinstance(value, str):
        value = [x for x in value.replace(",", " ").replace("[", " ").replace("]", " ").split()]
    return [int(x) for x in value]


_SOCHI = Rules()

PRESETS: dict[str, Rules] = {
    # Сочинка: rules.md §9.1 / §13 (Lesnoy's Sochi characteristics Lesnoy on Sochi).
    "sochi": _SOCHI,
    # Ленинградка («питер»): doubled prices, half responsibility, gentleman split the Leningrad table and descriptions.
    "leningrad": dataclasses.replace(
        _SOCHI,
        name="leningrad",
        ten_mode="whisted",
        whist_mult=2,
        remiz_mult=2,
        cons_mult=2,
        pen_mult=Fraction(1),
        lone_fail_style="gentleman",
        misere_trick=20,
        raspas_exit_levels=(7, 7, 7),
        k_pool=20,
        help_whists_per_point=20,
        writeoff_mountain_mult=2,
    ),
    # Ростов (московская): all-pass on whists, talon unused (Kodeks 3.7.2.2, 3.7.6.2).
    "rostov": dataclasses.replace(
        _SOCHI,
        name="rostov",
        raspas_scoring="whists",
        raspas_talon="unused",
        raspas_progression="none",
        raspas_zero_bonus="one",
        dealer_zero_bonus=True,
        amnesty=False,
        raspas_exit_levels=(6,),
    ),
    # Классика: dark games and bombs, sequential bids, full responsibility Lesnoy; Skuratov.
    "classic": dataclasses.replace(
        _SOCHI,
        name="classic",
        jump_bids=False,
        dark_bids=True,
        bombs=True,
        ten_mode="whisted",
    ),
    # The strict 1996 Kodeks profile: sequential bids, first hand's hold, whisted 10,
    # no «без трёх», «без всех» allowed, the discard shown to nobody (Kodeks 3.3.8, 3.5.4, 3.6.6).
    "kodeks": dataclasses.replace(
        _SOCHI,
        name="kodeks",
        jump_bids=False,
        hold_rule="first_hand_only",
        ten_mode="whisted",
        concede_all=True,
        misere_half_dealer_sees_discard=False,  # Kodeks 3.6.6: the discard is shown to nobody
    ),
}


class OptionDoc(NamedTuple):
    """What one :class:`Rules` field means, where it comes from and who plays which value.

    ``section`` is the section of ``docs/rules.md`` that explains the rule; the
    table of §13 there and ``preferans rules`` are made from these.
    """

    meaning: str
    who: str
    source: str
    section: str


OPTION_DOCS: dict[str, OptionDoc] = {
    "name": OptionDoc(
        "the preset this value was built from (a label; it changes no rule)", "—", "—", "§13"),
    # -- bidding ---------------------------------------------------------------------------
    "jump_bids": OptionDoc(
        "a bid may skip steps of the ladder (say 8♦ at once)",
        "true: Benyakova, clubs and most programs; false: the Kodeks", "Kodeks 3.3.8; seed 002 p.18", "§3.2.5"),
    "hold_rule": OptionDoc(
        "who may say «здесь»/«мои» (hold the current bid instead of raising): first_hand_only = first hand, "
        "against either of the others (the Kodeks' words); senior_only = the earlier of the two contenders, so "
        "second hand too against third; after_pass_any = anyone once somebody passed; via_passed_player = the "
        "senior, only across a passed player and never on 6♠",
        "first_hand_only: the Kodeks; senior_only: most programs; after_pass_any: Benyakova; "
        "via_passed_player: club rules",
        "Kodeks 3.3.8; seed 002 p.19", "§3.2.6"),
    "misere_rank": OptionDoc(
        "where misère sits on the ladder: after_8nt (only a 9 overcalls it) or top (above every game)",
        "after_8nt: the Kodeks and nearly everyone; top: Benyakova's list",
        "Kodeks 3.6.4; seed 002 p.17", "§3.1"),
    "misere_bidder_may_continue": OptionDoc(
        "a misère bidder overcalled by a nine may go on to a nine or higher himself (not hold it); false: "
        "after a misère he may only pass",
        "false: the Kodeks and most programs; true: some engines",
        "Kodeks 3.3.9, 3.6.4 (false); house agreement (true)", "§3.2.7"),
    "without_talon_bids": OptionDoc(
        "the ladder has 9 and 10 «без прикупа» and misère without the talon",
        "off by default; some classic tables play them", "seed 002 p.17; Lesnoy's dictionary", "§3.1"),
    "third_hand_takes_talon": OptionDoc(
        "after first and second hand passed, third hand may take the talon without naming a bid",
        "true: the Kodeks", "Kodeks 3.3.15", "§3.2.9"),
    "dark_bids": OptionDoc(
        "calls in the dark (пас втёмную, a game bid without looking)",
        "classic only, by prior agreement", "Kodeks 3.3.19", "§3.2.12"),
    "bombs": OptionDoc(
        "dark passers earn a bomb (бомба) on the all-pass that follows: their next game counts double",
        "classic", "Kodeks 3.3.19 a)", "§3.2.12"),
    "bomb_limit": OptionDoc(
        "the largest coefficient the dark escalation reaches (a power of two)",
        "agreed before the game (8 by default)", "Kodeks 3.3.19 a)", "§3.2.12"),
    "misere_half_with_dealer": OptionDoc(
        "with 4 players a misère bidder may invite the dealer to play it «пополам» (half each)",
        "allowed by the Kodeks", "Kodeks 3.6.9", "§7"),
    "misere_half_dealer_sees_discard": OptionDoc(
        "the dealer who plays a misère «пополам» with the declarer sees the two cards he discards (false: "
        "the discard is shown to nobody, the companion included)",
        "true: most tables and programs (the companions share the risk); false: the Kodeks",
        "Kodeks 3.6.6 («Снос никому не показывается»)", "§7"),
    "misere_catchers": OptionDoc(
        "who plays the catchers' hands against a misère: each_own (each his own, hands face up) or "
        "one_for_both (a catcher who says «ловлю» plays both hands when his partner answers «доверяю»)",
        "each_own: the Kodeks, every preset; one_for_both: Leningrad programs",
        "Kodeks 3.6.6 (each_own); house agreement", "§7"),
    "misere_winner_must_play_misere": OptionDoc(
        "whoever wins the auction with misère plays misère (false: he may switch to a game of 9 or more)",
        "true: common practice", "house agreement", "§4.4"),
    "totus": OptionDoc(
        "the ladder has a dedicated totus: a bid above misère and every other game, declared as a 10 in any "
        "strain, worth totus_bonus more in the pool when made", "false by default; true: some programs",
        "house agreement", "§3.1"),
    "totus_bonus": OptionDoc(
        "pool points added to a made totus", "5 in the programs that play it", "house agreement", "§3.1"),
    # -- declaration, whisting, play ----------------------------------------------------------
    "ten_mode": OptionDoc(
        "a 10-game is checked (no whist: all cards laid open and counted; a failure is written as any "
        "failed game), checked_remiz_only (checked, and a failure writes the declarer's remiz only: no "
        "whists, no consolation) or whisted like any game",
        "checked: Benyakova, Sochi programs; whisted: the Kodeks table, Leningrad, classic; "
        "checked_remiz_only: some programs", "seed 002 p.26; Kodeks 3.8.2", "§5.2"),
    "half_whist_levels": OptionDoc(
        "the levels on which the second defender may say полвиста after the first passed",
        "{6, 7} in most companies; some allow it on 6 only", "house agreement", "§5.4"),
    "first_defender_second_call": OptionDoc(
        "when both defenders passed, the first defender is asked once more and may still whist (he then "
        "defends alone, his partner a passer); false: both passes end the whisting (the game is written as made)",
        "false: the seed, every preset; true: Leningrad programs", "seed 002 p.25 (false); house agreement",
        "§5.1"),
    "first_defender_half_whist": OptionDoc(
        "a first defender who whisted and was left alone by his partner's pass may fall back to half-whist",
        "false by default; true: some programs", "house agreement", "§5.4"),
    "half_whist_played": OptionDoc(
        "a confirmed half-whist is played: the half-whister defends alone, is credited his side's tricks up "
        "to half the quota and answers for the shortfall below it (false: not played, half the quota written)",
        "false by default; true: some programs", "house agreement", "§5.4"),
    "half_whist_two_handed": OptionDoc(
        "in гусарик (two players) the live defender may half-whist, although the dummy, who «passed», "
        "cannot confirm it", "false: the default where sources are silent", "house agreement", "§16"),
    "dealer_whist": OptionDoc(
        "with 4 players, when both defenders passed a 6 or 7 (or after a half-whist), the dealer may whist: "
        "he plays both defending hands open and takes the whists, both consolations and the responsibility",
        "false by default; true: Leningrad programs", "house agreement", "§5.6"),
    "open_timing": OptionDoc(
        "when a lone whister chooses to lay the defenders' cards open: after_declarer_card (once the declarer "
        "has played his first card, Benyakova's «после первого хода играющего»), after_first_lead (once the "
        "deal's first card is on the table, whoever led it) or before_first_lead",
        "after_declarer_card: the seed, every preset; after_first_lead: this project's earlier reading",
        "seed 002 p.28", "§5.5"),
    "za_svoimi": OptionDoc(
        "a lone whister may, with the declarer's consent, not play and write his quota («за своими»)",
        "Benyakova", "seed 002 p.27", "§5.4"),
    "bez_trekh": OptionDoc(
        "the declarer may concede three down without play («без трёх без вистов»)",
        "a home rule; the Kodeks does not apply it", "Kodeks 3.5.4", "§4.5"),
    "bez_trekh_max_level": OptionDoc(
        "the highest level on which «без трёх» may be said (7: forbidden on 8 and above)",
        "10 by default; 7: some programs", "house agreement", "§4.5"),
    "concede_all": OptionDoc(
        "the declarer may concede that he takes no trick («без всех»)",
        "the Kodeks", "Kodeks 3.5.4", "§4.5"),
    "stalingrad": OptionDoc(
        "on 6♠ both defenders must whist («сталинград»)", "a local rule, off by default", "house agreement",
        "§5.4"),
    "raspas_talon": OptionDoc(
        "what the talon does on all-pass: suit_only (its cards name the suit of tricks 1 and 2), "
        "participates (they lead and can take the trick, for the dealer; 4 players only), unused; auto = "
        "suit_only with 3 players, participates with 4, unused on an all-pass scored on whists",
        "auto: Sochi, Leningrad, classic; unused: Rostov",
        "Kodeks 3.7.6.1–3.7.6.3", "§8.2"),
    "irregularity_reports": OptionDoc(
        "the game offers reports of irregularities (talon seen, exposed, taken; misdeal; a call out of turn)",
        "off unless the table asks", "Kodeks 3.3.16–3.3.18", "§3.3"),
    "claims": OptionDoc(
        "players may claim the rest of the tricks during play", "off unless the table asks",
        "house agreement", "§6"),
    "report_consent": OptionDoc(
        "at a table a report about another player takes effect when the accused confirms it (offender), or "
        "also when every other player does (offender_or_others); a report about oneself at once; bots never "
        "confirm a physical event",
        "offender everywhere", "Kodeks 3.3.16–3.3.18", "§3.3"),
    # -- scoring of one deal -------------------------------------------------------------------
    "game_values": OptionDoc(
        "V(6) … V(10): what a game of each level is worth", "2 4 6 8 10 everywhere", "Lesnoy; Leningrad table",
        "§9.1"),
    "whist_mult": OptionDoc(
        "the whist price of a defender's trick, in units of V", "1 Sochi, Rostov, classic; 2 Leningrad",
        "Leningrad table", "§9.1"),
    "remiz_mult": OptionDoc(
        "the declarer's mountain per undertrick, in units of V", "1; 2 Leningrad", "Leningrad table", "§9.1"),
    "pen_mult": OptionDoc(
        "a whister's mountain per trick short of his quota, in units of V (a fraction is allowed)",
        "1 everywhere (in Leningrad that is half of the doubled price: «полуответственный вист»)",
        "Lesnoy; Leningrad table", "§5.3"),
    "cons_mult": OptionDoc(
        "the consolation each opponent writes per undertrick, in units of V", "1; 2 Leningrad",
        "Kodeks 3.8.1.2", "§5.4"),
    "consolation_by_dealer": OptionDoc(
        "the 4-handed dealer writes the consolation too", "true: the Kodeks, Benyakova",
        "Kodeks 3.8.1.2; seed 002 p.14", "§9.3"),
    "lone_fail_style": OptionDoc(
        "when the declarer fails against one whister: greedy (жлобский: the whister writes the side's "
        "tricks, the passer only the consolation) or gentleman (джентльменский: they split everything)",
        "greedy: Sochi, classic; gentleman: Leningrad", "Lesnoy (Sochi); Leningrad descriptions", "§5.4"),
    "lone_quota": OptionDoc(
        "a lone whister answers for the whole quota (full) or half of it", "full: common practice",
        "house agreement", "§5.2"),
    "norm1_both_fail": OptionDoc(
        "on 8–10 with both whisters at no trick: both_full (each is charged the trick), half_each, or "
        "second (only the second whister answers for it)",
        "both_full: the default; second: some programs", "house agreement", "§5.2"),
    "whister_quota": OptionDoc(
        "with two whisters: shared (the side's quota; only a whister below his half answers for the side's "
        "shortfall) or own (each answers for his own share whatever his partner took: 2 and 2 on a 6, 1 and "
        "1 on a 7, and on 8–10 the second whister for the one trick), own_last (own on 6 and 7; on 8–10 "
        "the side's one trick, and only the last whister pays when nobody took it) or own_if_short (nobody "
        "pays while the side has its quota; when it is short, each whister below his half pays his own "
        "deficit, not the side's shortfall)",
        "shared: the default; own, own_last, own_if_short: some programs", "house agreement", "§5.2"),
    "misere_pool": OptionDoc("pool points for a clean misère", "10 everywhere", "Lesnoy", "§7"),
    "misere_trick": OptionDoc(
        "mountain per trick on a caught misère", "10; 20 Leningrad", "Leningrad table", "§7"),
    "bez_trekh_consolation": OptionDoc(
        "«без трёх» also writes the consolation for the three undertricks (yes/no)", "yes by default",
        "house agreement", "§4.5"),
    "dealer_talon_whists": OptionDoc(
        "the 4-handed dealer writes whists on the declarer for aces «sold» in the talon, in whist prices of "
        "the game: none; aces (one per ace); sure_tricks (aces, and a king under its ace); leningrad (two aces "
        "3, ace and king of a suit 2, king and queen of a suit 1, one ace 1) — written whatever the outcome",
        "none by default; leningrad: the Leningrad table", "seed 002 p.14; the Leningrad table", "§9.3"),
    "dealer_shown_talon_whists": OptionDoc(
        "when the 4-handed dealer shows the talon before it is taken, the declarer writes this many whist "
        "prices on him and the deal goes on (0: not a rule here)",
        "0 by default; 2: Leningrad programs", "house agreement", "§3.3"),
    # -- all-pass --------------------------------------------------------------------------------
    "raspas_scoring": OptionDoc(
        "all-pass tricks are written into the mountain, or as whists by the player with fewest tricks",
        "mountain: Sochi, Leningrad, classic; whists: Rostov", "Kodeks 3.7.2", "§8.3"),
    "raspas_price": OptionDoc(
        "price of a trick on the first all-pass of a series", "1 by default", "Kodeks 3.7.2.1; Lesnoy", "§8.3"),
    "raspas_progression": OptionDoc(
        "how the price grows over consecutive all-passes: arithmetic (1 2 3), geometric (1 2 4) or none",
        "arithmetic: the Kodeks' recommendation; none: Rostov", "Kodeks 3.7.4", "§8.3"),
    "raspas_limit": OptionDoc(
        "steps after which the progression stops growing (0 = unlimited)", "3, as the Kodeks recommends",
        "Kodeks 3.7.4.3", "§8.3"),
    "raspas_whists_per_trick": OptionDoc(
        "Rostov all-pass: whists per trick written by the player with fewest tricks", "5, the commonest",
        "Kodeks 3.7.2.2", "§8.3"),
    "raspas_zero_bonus": OptionDoc(
        "pool points for taking no trick on all-pass: price (of one trick), one, or none",
        "price: Sochi, Leningrad, classic; one: Rostov", "Kodeks 3.7.2.1–3.7.2.2", "§8.3"),
    "dealer_zero_bonus": OptionDoc(
        "the 4-handed dealer who took no talon trick writes the zero bonus too",
        "true: Rostov (the dealer writes 1)", "Kodeks 3.7.6.2", "§8.3"),
    "raspas_exit_levels": OptionDoc(
        "the lowest game allowed after 1, 2, 3… consecutive all-passes («выход»)",
        "6 6 6 (none): Sochi; 7 7 7: Leningrad; 6 7 7: some Sochi tables", "descriptions of the conventions",
        "§8.3"),
    "exit_requires_whisted_game": OptionDoc(
        "only a whisted (or checked) game ends the all-pass series", "false by default", "house agreement",
        "§8.3"),
    "exit_requires_made_game": OptionDoc(
        "only a game made ends the all-pass series: not a failed, conceded or unwhisted one, nor a caught "
        "misère", "false by default; true: some programs", "house agreement", "§8.3"),
    "misere_ends_series": OptionDoc(
        "a misère ends the all-pass series", "true by default", "house agreement", "§8.3"),
    "amnesty": OptionDoc(
        "after an all-pass scored on the mountain, the smallest count is taken off everybody's (cosmetic)",
        "true: mountain conventions", "Kodeks 3.7.3", "§8.3"),
    "deal_moves_after_raspas": OptionDoc(
        "after an all-pass the deal passes to the next player (false: the same dealer deals again)",
        "true: the Kodeks' rule; false: a house agreement some tables play",
        "Kodeks 3.7.7 «После распасовки сдача переходит к следующему игроку по кругу»", "§2"),
    # -- the pulka and settlement -------------------------------------------------------------------
    "pool_target": OptionDoc(
        "the size of the pool each player must fill («закрыть пулю»)", "agreed before the game; 20 by default",
        "club rules", "§10"),
    "k_pool": OptionDoc(
        "whists one pool point is worth at the settlement", "10; 20 Leningrad", "descriptions of Leningrad",
        "§11"),
    "k_mount": OptionDoc(
        "whists one mountain point is worth at the settlement (an exact fraction is allowed: 40/3)",
        "10 everywhere", "settlement descriptions", "§11"),
    "mountain_shared_among": OptionDoc(
        "each remaining mountain is paid to all n players' account (all: × k_mount / n by each other "
        "player) or shared among the n − 1 others (others: × k_mount / (n − 1) by each, the closed formula's "
        "factor becoming k_mount·n/(n − 1): 15 at three, 40/3 at four)",
        "all: the paper method; others: some programs", "settlement descriptions; calculation", "§11.1"),
    "help_whists_per_point": OptionDoc(
        "whists a closed player writes on the one he helps, per pool point", "10; 20 Leningrad",
        "value-neutral with k_pool (calculation)", "§10"),
    "mountain_divisible": OptionDoc(
        "in гусарик each mountain is settled like any n-player mountain (true), or is indivisible (false: "
        "every mountain point is worth k_mount whists to the other player — one reading of «гусарик с "
        "неделимой горой»)", "true: the default where sources are silent",
        "Kodeks 4.1.1(в) names it without defining it", "§16"),
    "help_target": OptionDoc(
        "whom a closed player's surplus helps: lowest_pool, highest_pool (the open pool nearest closing; "
        "ties clockwise from the helper), next (the next open player clockwise) or choice",
        "lowest_pool by default; highest_pool: some programs", "house agreement", "§10"),
    "writeoff_mountain_mult": OptionDoc(
        "mountain written off per surplus pool point when nobody can be helped", "1; 2 Leningrad",
        "descriptions of «питер»", "§10"),
    "surplus_lost": OptionDoc(
        "pool points past the target that can neither help nor write off one's mountain are lost "
        "(false: they stay in one's pool)", "false by default; true: some programs", "house agreement",
        "§10"),
    "end_condition": OptionDoc(
        "when the pulka ends: all_closed, deals (after max_deals), pool_sum, or agreement",
        "all_closed: Sochi", "descriptions of the pulka", "§10"),
    "max_deals": OptionDoc(
        "the number of deals for end_condition=deals", "0 (unused) by default", "—", "§10"),
    "rounding": OptionDoc(
        "how results are rounded: exact (fractions kept), half_up (whole whists, sum kept at zero), "
        "kodeks_shift (the book's shift of one mountain point at a 4-handed table), per_transfer (each "
        "share a player writes on another — for a pool's difference, for a mountain — is rounded to a whole "
        "whist on its own before the whists are netted)",
        "exact by default; per_transfer: some programs", "«Преферанс во всех видах»", "§11.3"),
}
