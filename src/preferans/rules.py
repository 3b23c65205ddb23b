"""Table conventions: one frozen :class:`Rules` value and its named presets.

Every parameter of spec §13 that a company must agree on before the first deal
is a field here, under the spec's own name, so that an agreement reads the
same in ``rules.md``, in code and on the command line
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
>>> r.replace(hold_rule="anyone")
Traceback (most recent call last):
...
preferans.errors.RulesError: hold_rule: 'anyone' is not one of 'senior_only', 'after_pass_any', 'via_passed_player'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, ClassVar

from .errors import RulesError

__all__ = ["PRESETS", "Rules"]

# Choice-valued fields and their allowed values.
_CHOICES: dict[str, tuple[str, ...]] = {
    "hold_rule": ("senior_only", "after_pass_any", "via_passed_player"),
    "misere_rank": ("after_8nt", "top"),
    "ten_mode": ("checked", "whisted"),
    "open_timing": ("after_first_lead", "before_first_lead"),
    "raspas_talon": ("auto", "suit_only", "participates", "unused"),
    "lone_fail_style": ("greedy", "gentleman"),
    "lone_quota": ("full", "half"),
    "norm1_both_fail": ("both_full", "half_each"),
    "raspas_scoring": ("mountain", "whists"),
    "raspas_progression": ("arithmetic", "geometric", "none"),
    "raspas_zero_bonus": ("price", "one", "none"),
    "end_condition": ("all_closed", "deals", "pool_sum", "agreement"),
    "dealer_talon_whists": ("none", "aces", "sure_tricks"),
    "rounding": ("exact", "half_up", "kodeks_shift"),
    "help_target": ("choice", "lowest_pool", "next"),
    "bez_trekh_consolation": ("yes", "no"),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """A company's conventions (spec §13).  Build one with :meth:`preset`.

    Deal fields (used by :class:`preferans.Deal`) come first, then the scoring
    fields (used by :mod:`preferans.scoring` and :class:`preferans.Pulka`).
    """

    name: str = "sochi"

    # --- bidding (spec §3, Kodeks 3.3.8–3.3.19) -------------------------------
    jump_bids: bool = True  # Kodeks 3.3.8 forbids jumps; Benyakova p.18 allows them
    hold_rule: str = "senior_only"  # who may say здесь/мои (Kodeks 3.3.8, seed-002 p.19)
    misere_rank: str = "after_8nt"  # Kodeks 3.6.4; Benyakova p.17 puts misère on top
    misere_bidder_may_continue: bool = False  # spec §3.2.7 [K]
    without_talon_bids: bool = False  # 9/10 без прикупа, мизер без прикупа (seed-002 p.17)
    third_hand_takes_talon: bool = True  # Kodeks 3.3.15
    dark_bids: bool = False  # Kodeks 3.3.19: only by prior agreement (classic)
    bombs: bool = False  # Kodeks 3.3.19 a)
    bomb_limit: int = 8  # cap of the geometric escalation of dark passes (agreed)
    misere_half_with_dealer: bool = True  # Kodeks 3.6.9 (4 players)
    misere_winner_must_play_misere: bool = True  # spec §4.4 [K]

    # --- declaration, whisting and play (spec §4–§6) -----------------------------
    ten_mode: str = "checked"  # seed-002 p.26 checked; Kodeks table: whisted
    half_whist_levels: frozenset[int] = frozenset({6, 7})
    open_timing: str = "after_first_lead"  # seed-002 p.28
    za_svoimi: bool = False  # seed-002 p.27: lone whister writes his quota without play
    bez_trekh: bool = False  # «без трёх без вистов»; Kodeks 3.5.4: not applied
    concede_all: bool = False  # Kodeks 3.5.4: the declarer may admit «без всех»
    stalingrad: bool = False  # 6♠ must be whisted by both [K]
    raspas_talon: str = "auto"  # Kodeks 3.7.6; auto = suit_only (3p) / participates (4p)
    irregularity_reports: bool = False  # UIs offer "report an irregularity" (Kodeks 3.3.16–3.3.18)
    claims: bool = False  # UIs offer claims during play (issue 10)

    # --- scoring of one deal (spec §9) ------------------------------------------
    game_values: tuple[int, ...] = (2, 4, 6, 8, 10)  # V(6) … V(10)
    whist_mult: int = 1  # whist price per defender's trick / V
    remiz_mult: int = 1  # declarer's mountain per undertrick / V
    pen_mult: Fraction = Fraction(1)  # whister's short trick / V (Leningrad: 1 = half of 2V)
    cons_mult: int = 1  # consolation per undertrick / V
    consolation_by_dealer: bool = True  # Kodeks 3.8.1.2: the 4-handed dealer writes it too
    lone_fail_style: str = "greedy"  # жлобский / джентльменский
    lone_quota: str = "full"
    norm1_both_fail: str = "both_full"
    misere_pool: int = 10
    misere_trick: int = 10
    bez_trekh_consolation: str = "yes"
    dealer_talon_whists: str = "none"  # «проданные тузы», seed-002 p.14

    # --- all-pass (spec §8, Kodeks 3.7) ---------------------------------------------
    raspas_scoring: str = "mountain"  # Kodeks 3.7.2.1 mountain; 3.7.2.2 whists (Rostov)
    raspas_price: int = 1  # price of a trick on the first all-pass of a series
    raspas_progression: str = "arithmetic"  # Kodeks 3.7.4
    raspas_limit: int = 3  # steps of the progression (Kodeks 3.7.4.3); 0 = unlimited
    raspas_whists_per_trick: int = 5  # Rostov (Kodeks 3.7.2.2)
    raspas_zero_bonus: str = "price"  # Kodeks 3.7.2.1: price; 3.7.2.2: one
    dealer_zero_bonus: bool = False  # Kodeks 3.7.6.2 (Rostov: True)
    raspas_exit_levels: tuple[int, ...] = (6, 6, 6)
    exit_requires_whisted_game: bool = False
    misere_ends_series: bool = True
    amnesty: bool = True  # Kodeks 3.7.3
    deal_moves_after_raspas: bool = True  # Kodeks 3.7.7 (скользящая распасовка when False)

    # --- the pulka and settlement (spec §10–§11) ---------------------------------------
    pool_target: int = 20
    k_pool: int = 10
    k_mount: int = 10
    help_whists_per_point: int = 10
    help_target: str = "lowest_pool"
    writeoff_mountain_mult: int = 1
    end_condition: str = "all_closed"
    max_deals: int = 0  # for end_condition="deals"
    rounding: str = "exact"

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
    def raspas_talon_for(self, players: int) -> str:
        """Talon use on all-pass for a table of ``players`` (Kodeks 3.7.6)."""
        if self.raspas_talon != "auto":
            return self.raspas_talon
        return "suit_only" if players == 3 else "participates"

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

    def game_value(self, level: int) -> int:
        """V(level): the value of a game of that level (spec §9)."""
        return self.game_values[level - 6]

    # -- validation ---------------------------------------------------------------------
    def _validate(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in _CHOICES and v not in _CHOICES[f.name]:
                allowed = ", ".join(repr(c) for c in _CHOICES[f.name])
                raise RulesError(f"{f.name}: {v!r} is not one of {allowed}")
        if len(self.game_values) != 5 or any(v <= 0 for v in self.game_values):
            raise RulesError("game_values: give five positive values, for levels 6 to 10")
        if not self.half_whist_levels <= {6, 7, 8, 9, 10}:
            raise RulesError(f"half_whist_levels: levels must be 6..10, not {sorted(self.half_whist_levels)}")
        if not self.raspas_exit_levels or any(not 6 <= x <= 10 for x in self.raspas_exit_levels):
            raise RulesError("raspas_exit_levels: give one or more levels from 6 to 10")
        if self.bombs and not self.dark_bids:
            raise RulesError("bombs: bombs are earned by dark passes, so they need dark_bids=True (Kodeks 3.3.19)")
        if self.bomb_limit < 2 or self.bomb_limit & (self.bomb_limit - 1):
            raise RulesError(f"bomb_limit: must be a power of two ≥ 2, not {self.bomb_limit}")
        for name in ("pool_target", "k_pool", "k_mount", "raspas_price", "misere_pool",
                     "misere_trick", "raspas_whists_per_trick", "help_whists_per_point"):
            if getattr(self, name) <= 0:
                raise RulesError(f"{name}: must be positive, not {getattr(self, name)}")
        for name in ("whist_mult", "remiz_mult", "cons_mult", "writeoff_mountain_mult"):
            if getattr(self, name) < 0:
                raise RulesError(f"{name}: must not be negative, not {getattr(self, name)}")
        if self.pen_mult < 0:
            raise RulesError(f"pen_mult: must not be negative, not {self.pen_mult}")
        if self.raspas_limit < 0 or self.max_deals < 0:
            raise RulesError("raspas_limit and max_deals must not be negative")
        if self.end_condition == "deals" and self.max_deals == 0:
            raise RulesError("end_condition='deals' needs max_deals > 0")
        if self.raspas_scoring == "whists" and self.raspas_talon in ("suit_only", "participates"):
            # Kodeks 3.7.6.2: on whists the talon takes no part in the play.
            raise RulesError(
                "raspas_talon: all-pass scored on whists (Rostov) plays without the talon "
                "(Kodeks 3.7.6.2); use raspas_talon='unused' or 'auto'"
            )


_FIELD_NAMES = frozenset(f.name for f in fields(Rules))
_FIELD_TYPES = {f.name: f.type for f in fields(Rules)}


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
            if isinstance(value, bool):
                raise ValueError
            return Fraction(value)
        if typ.startswith("frozenset"):
            return frozenset(_int_items(value))
        if typ.startswith("tuple"):
            return tuple(_int_items(value))
        if typ == "str":
            if not isinstance(value, str):
                raise ValueError
            return value
    except (ValueError, TypeError, ZeroDivisionError):
        raise RulesError(f"{name}: cannot use {value!r}, expected {typ}") from None
    return value


def _int_items(value: Any) -> list[int]:
    if isinstance(value, str):
        value = [x for x in value.replace(",", " ").replace("[", " ").replace("]", " ").split()]
    return [int(x) for x in value]


_SOCHI = Rules()

PRESETS: dict[str, Rules] = {
    # Сочинка: spec §9.1 / §13 (Lesnoy's Sochi characteristics [S6]).
    "sochi": _SOCHI,
    # Ленинградка («питер»): doubled prices, half responsibility, gentleman split [S7][S8].
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
    # Классика: dark games and bombs, sequential bids, full responsibility [S9][S22].
    "classic": dataclasses.replace(
        _SOCHI,
        name="classic",
        jump_bids=False,
        dark_bids=True,
        bombs=True,
        ten_mode="whisted",
    ),
    # The strict 1996 Kodeks profile: sequential bids, senior hold, whisted 10,
    # no «без трёх», «без всех» allowed (Kodeks 3.3.8, 3.5.4).
    "kodeks": dataclasses.replace(
        _SOCHI,
        name="kodeks",
        jump_bids=False,
        ten_mode="whisted",
        concede_all=True,
    ),
}
