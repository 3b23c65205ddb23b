"""Every table option (:class:`~preferans.rules.Rules` field) in the players' words.

For each option: the group it belongs to (bidding, misère, whisting, play, all-pass,
writing a deal, the pulka), a short name and a one-line explanation as players say
it, and a label for each of its choices — English here, marked for the catalogs
(:func:`~preferans.i18n.N_`), Russian in ``ru.po`` in the words of the seeds
(«здесь», «полвиста», «за своими», «распасы», «консоляция», «проданные тузы»).
The web lobby's options form is drawn from these (``GET /api/presets``), and the
engine and the rules name an option with :class:`Option` so that a Russian player
reads its Russian name where an English one reads the field (``hold_rule``), which
is what ``--set`` and ``docs/rules.md`` §13 use.

>>> option_name("stalingrad", "ru"), option_name("jump_bids", "en")
('Сталинград', 'Jump bids')
>>> from preferans.i18n import Call, Msg, text
>>> m = Msg("{action}: after bidding misère you may only pass (table option {option})", action=Call("7♠"),
...         option=Option("misere_bidder_may_continue"))
>>> print(m); print(text(m, "ru"))
7♠: after bidding misère you may only pass (table option misere_bidder_may_continue)
7♠: после мизера можно только пасовать (правило стола «Мизерист торгуется дальше»)
>>> choice_name("hold_rule", "first_hand_only", "ru")
'только первая рука (Кодекс)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .i18n import N_, Translator

__all__ = ["GROUPS", "WORDS", "Option", "OptionValue", "OptionWords", "choice_name", "option_name"]

GROUPS: tuple[tuple[str, str], ...] = (
    ("bidding", N_("Bidding")),
    ("misere", N_("Misère")),
    ("whisting", N_("Whisting")),
    ("play", N_("Play and the table")),
    ("all_pass", N_("All-pass")),
    ("scoring", N_("Writing a deal")),
    ("pulka", N_("The pulka and the settlement")),
)
"""The groups of the options form, in order: (key, name)."""

_YES_NO = {"yes": N_("yes"), "no": N_("no")}


@dataclass(frozen=True)
class OptionWords:
    """One option as players read it: its group, name, one-line meaning and choices' labels."""

    group: str
    name: str
    help: str
    choices: Mapping[str, str] = field(default_factory=dict)


WORDS: dict[str, OptionWords] = {
    # -- bidding (rules.md §3) --------------------------------------------------------------------
    "jump_bids": OptionWords("bidding", N_("Jump bids"), N_("A bid may skip steps of the ladder (8♦ at once)")),
    "hold_rule": OptionWords(
        "bidding", N_("Who may say «here»"), N_("Who may hold the current bid instead of raising it"),
        {"first_hand_only": N_("first hand only (Kodeks)"),
         "senior_only": N_("the senior of the two bidders"),
         "after_pass_any": N_("anyone, once somebody passed"),
         "via_passed_player": N_("the senior, across a passed player, never on 6♠")}),
    "third_hand_takes_talon": OptionWords(
        "bidding", N_("Third hand takes the talon unbid"),
        N_("After first and second hand passed, third hand may take the talon without naming a bid")),
    "without_talon_bids": OptionWords(
        "bidding", N_("Games without the talon"),
        N_("The ladder has 9 and 10 without the talon, and misère without the talon")),
    "dark_bids": OptionWords("bidding", N_("Calls in the dark"), N_("Pass or bid before looking at one's cards")),
    "bombs": OptionWords(
        "bidding", N_("Bombs"),
        N_("Dark passers earn a bomb on the all-pass that follows: their next game counts double")),
    "bomb_limit": OptionWords(
        "bidding", N_("Highest bomb coefficient"), N_("The largest coefficient dark calls reach (a power of two)")),
    "totus": OptionWords(
        "bidding", N_("Totus"), N_("A bid above misère: a ten in any strain, with a bonus in the pool when made")),
    "totus_bonus": OptionWords("bidding", N_("Totus bonus"), N_("Pool points added to a made totus")),
    # -- misère (rules.md §7) ------------------------------------------------------------------------
    "misere_rank": OptionWords(
        "misere", N_("Where misère stands"), N_("Misère's place on the ladder of bids"),
        {"after_8nt": N_("after 8NT: only a nine overcalls it"), "top": N_("above every game")}),
    "misere_bidder_may_continue": OptionWords(
        "misere", N_("The misère bidder may go on"),
        N_("A misère bidder overcalled by a nine may bid a nine or higher himself")),
    "misere_winner_must_play_misere": OptionWords(
        "misere", N_("Misère is played as bid"),
        N_("Whoever wins the auction with misère plays misère (else he may declare a nine or more)")),
    "misere_half_with_dealer": OptionWords(
        "misere", N_("Misère half and half with the dealer"),
        N_("With four players a misère bidder may invite the dealer to play it half and half")),
    "misere_half_dealer_sees_discard": OptionWords(
        "misere", N_("The companion sees the discard"),
        N_("The dealer playing a misère half and half sees the two cards the declarer discards")),
    "misere_catchers": OptionWords(
        "misere", N_("Catching a misère"), N_("Who plays the catchers' hands against a misère"),
        {"each_own": N_("each his own hand, face up"),
         "one_for_both": N_("one catcher plays both hands («I catch» — «I trust»)")}),
    "misere_pool": OptionWords("misere", N_("Pool for a clean misère"), N_("Pool points for a misère with no trick")),
    "misere_trick": OptionWords(
        "misere", N_("Mountain per misère trick"), N_("Mountain points for each trick taken on a caught misère")),
    # -- whisting (rules.md §5) ---------------------------------------------------------------------------
    "ten_mode": OptionWords(
        "whisting", N_("The ten"), N_("How a game of ten is played"),
        {"checked": N_("checked: all cards open, no whist"),
         "checked_remiz_only": N_("checked; a failure writes the remiz only"),
         "whisted": N_("whisted like any game")}),
    "half_whist_levels": OptionWords(
        "whisting", N_("Half-whist on levels"),
        N_("The games on which the second defender may say half-whist after the first passed (e.g. 6 7)")),
    "first_defender_half_whist": OptionWords(
        "whisting", N_("The first defender's half-whist"),
        N_("A whister left alone by his partner's pass may fall back to half-whist")),
    "first_defender_second_call": OptionWords(
        "whisting", N_("The first defender is asked again"),
        N_("When both defenders passed, the first may still whist")),
    "half_whist_played": OptionWords(
        "whisting", N_("Half-whist is played"),
        N_("The half-whister defends alone instead of writing half the quota")),
    "dealer_whist": OptionWords(
        "whisting", N_("The dealer's whist"),
        N_("With four players the dealer may whist a 6 or 7 both defenders passed")),
    "half_whist_two_handed": OptionWords(
        "whisting", N_("Half-whist in гусарик"), N_("With two players the live defender may say half-whist")),
    "stalingrad": OptionWords("whisting", N_("Stalingrad"), N_("On 6♠ both defenders must whist")),
    "za_svoimi": OptionWords(
        "whisting", N_("«За своими»"),
        N_("A lone whister may, with the declarer's consent, not play and write his quota")),
    "lone_quota": OptionWords(
        "whisting", N_("A lone whister's quota"), N_("What a whister defending alone answers for"),
        {"full": N_("the whole quota"), "half": N_("half of it")}),
    "whister_quota": OptionWords(
        "whisting", N_("Two whisters' quota"), N_("What each of two whisters answers for"),
        {"shared": N_("the side's quota, shared"), "own": N_("each his own share"),
         "own_last": N_("each his own share; on 8–10 the last whister"),
         "own_if_short": N_("each his own deficit when the side is short")}),
    "norm1_both_fail": OptionWords(
        "whisting", N_("Both whisters without a trick (8–10)"),
        N_("Who answers for the one trick of the quota on a game of 8 to 10"),
        {"both_full": N_("each answers for it"), "half_each": N_("half each"),
         "second": N_("the second whister")}),
    # -- play and the table (rules.md §4–§6, §3.3) -------------------------------------------------------
    "open_timing": OptionWords(
        "play", N_("When the whister lies down"), N_("When a lone whister may lay the defenders' cards open"),
        {"after_declarer_card": N_("after the declarer's first card"),
         "after_first_lead": N_("after the first card of the deal"),
         "before_first_lead": N_("before the first lead")}),
    "bez_trekh": OptionWords(
        "play", N_("«Без трёх»"), N_("The declarer may concede three down without play")),
    "bez_trekh_max_level": OptionWords(
        "play", N_("«Без трёх» up to the game of"), N_("The highest game on which «без трёх» may be said")),
    "concede_all": OptionWords("play", N_("«Без всех»"), N_("The declarer may concede that he takes no trick")),
    "irregularity_reports": OptionWords(
        "play", N_("Reports of irregularities"),
        N_("Players may report a seen or exposed talon, a misdeal, a call out of turn")),
    "report_consent": OptionWords(
        "play", N_("Who confirms a report"), N_("A report about another player takes effect when confirmed by"),
        {"offender": N_("the accused"), "offender_or_others": N_("the accused, or all the others")}),
    "claims": OptionWords("play", N_("Claims"), N_("Players may claim the rest of the tricks during play")),
    # -- all-pass (rules.md §8) ----------------------------------------------------------------------------
    "raspas_talon": OptionWords(
        "all_pass", N_("The talon on all-pass"), N_("What the talon's cards do on an all-pass"),
        {"auto": N_("as usual: name the suit with three, take tricks with four"),
         "suit_only": N_("name the suit of the first two tricks"),
         "participates": N_("lead and take tricks for the dealer (four players)"),
         "unused": N_("not used")}),
    "raspas_scoring": OptionWords(
        "all_pass", N_("All-pass written"), N_("Where all-pass tricks are written"),
        {"mountain": N_("into the mountain"), "whists": N_("as whists (Rostov)")}),
    "raspas_price": OptionWords(
        "all_pass", N_("Price of an all-pass trick"), N_("The price of a trick on the first all-pass of a series")),
    "raspas_progression": OptionWords(
        "all_pass", N_("All-pass progression"), N_("How the price grows over all-passes in a row"),
        {"arithmetic": N_("1, 2, 3 (arithmetic)"), "geometric": N_("1, 2, 4 (geometric)"), "none": N_("none")}),
    "raspas_limit": OptionWords(
        "all_pass", N_("The price grows until step"), N_("Steps after which the price stops growing (0: never)")),
    "raspas_whists_per_trick": OptionWords(
        "all_pass", N_("Whists per all-pass trick"), N_("All-pass written as whists: whists per trick")),
    "raspas_zero_bonus": OptionWords(
        "all_pass", N_("Bonus for no trick"), N_("Pool points for taking no trick on an all-pass"),
        {"price": N_("the price of a trick"), "one": N_("one point"), "none": N_("none")}),
    "dealer_zero_bonus": OptionWords(
        "all_pass", N_("The dealer's bonus"),
        N_("The four-handed dealer who took no trick with the talon gets the bonus too")),
    "raspas_exit_levels": OptionWords(
        "all_pass", N_("Exit from all-pass"),
        N_("The lowest game after 1, 2, 3… all-passes in a row (e.g. 6 7 7)")),
    "exit_requires_whisted_game": OptionWords(
        "all_pass", N_("Only a whisted game ends the series"),
        N_("The all-pass series ends only with a whisted (or checked) game")),
    "exit_requires_made_game": OptionWords(
        "all_pass", N_("Only a made game ends the series"), N_("The all-pass series ends only with a game made")),
    "misere_ends_series": OptionWords(
        "all_pass", N_("Misère ends the series"), N_("A misère ends the all-pass series")),
    "amnesty": OptionWords(
        "all_pass", N_("Amnesty"),
        N_("After an all-pass written into the mountain the smallest count is taken off everybody's")),
    "deal_moves_after_raspas": OptionWords(
        "all_pass", N_("The deal moves on after an all-pass"),
        N_("After an all-pass the next player deals (else the same dealer again)")),
    # -- writing a deal (rules.md §9) ------------------------------------------------------------------------
    "game_values": OptionWords(
        "scoring", N_("Game values, 6 to 10"), N_("What a game of each level is worth (e.g. 2 4 6 8 10)")),
    "whist_mult": OptionWords(
        "scoring", N_("Whist price"), N_("A defender's trick, in game values")),
    "remiz_mult": OptionWords(
        "scoring", N_("Remiz per undertrick"), N_("The declarer's mountain per trick short, in game values")),
    "pen_mult": OptionWords(
        "scoring", N_("Whister's shortfall"),
        N_("A whister's mountain per trick short of his quota, in game values (a fraction is allowed)")),
    "cons_mult": OptionWords(
        "scoring", N_("Consolation"), N_("Whists each opponent writes per undertrick, in game values")),
    "consolation_by_dealer": OptionWords(
        "scoring", N_("The dealer writes the consolation"), N_("The four-handed dealer writes the consolation too")),
    "lone_fail_style": OptionWords(
        "scoring", N_("A lone whister, the declarer fails"), N_("How the defenders write a failed game"),
        {"greedy": N_("greedy: the whister writes the side's tricks"),
         "gentleman": N_("gentleman: they split everything")}),
    "bez_trekh_consolation": OptionWords(
        "scoring", N_("Consolation for «без трёх»"), N_("«Без трёх» also writes the consolation"), _YES_NO),
    "dealer_talon_whists": OptionWords(
        "scoring", N_("Sold aces"), N_("The four-handed dealer writes whists on the declarer for the talon"),
        {"none": N_("no"), "aces": N_("one per ace"), "sure_tricks": N_("aces, and a king under its ace"),
         "leningrad": N_("by the Leningrad table")}),
    "dealer_shown_talon_whists": OptionWords(
        "scoring", N_("The dealer showed the talon"),
        N_("Whist prices the declarer writes on a four-handed dealer who showed the talon (0: no such rule)")),
    # -- the pulka and the settlement (rules.md §10–§11) ----------------------------------------------------
    "pool_target": OptionWords("pulka", N_("Pool"), N_("The pool each player must close")),
    "k_pool": OptionWords(
        "pulka", N_("A pool point in whists"), N_("Whists one pool point is worth at the settlement")),
    "k_mount": OptionWords(
        "pulka", N_("A mountain point in whists"),
        N_("Whists one mountain point is worth at the settlement (a fraction is allowed: 40/3)")),
    "mountain_shared_among": OptionWords(
        "pulka", N_("The mountain is paid"), N_("Among whom each mountain is settled"),
        {"all": N_("among all the players (as on paper)"), "others": N_("among the others")}),
    "mountain_divisible": OptionWords(
        "pulka", N_("Divisible mountain (гусарик)"),
        N_("With two players each mountain is settled as at three (else all of it goes to the other)")),
    "help_whists_per_point": OptionWords(
        "pulka", N_("Whists for help"), N_("Whists a closed player writes on the one he helps, per pool point")),
    "help_target": OptionWords(
        "pulka", N_("Whom the surplus helps"), N_("Whose pool a closed player's surplus goes into"),
        {"lowest_pool": N_("the smallest pool"), "highest_pool": N_("the pool nearest closing"),
         "next": N_("the next player"), "choice": N_("the player's choice")}),
    "writeoff_mountain_mult": OptionWords(
        "pulka", N_("Mountain written off"), N_("Mountain written off per surplus pool point nobody can take")),
    "surplus_lost": OptionWords(
        "pulka", N_("The surplus is lost"), N_("Pool points past the target that nobody can take are lost")),
    "end_condition": OptionWords(
        "pulka", N_("The pulka ends"), N_("When the game is over"),
        {"all_closed": N_("when every pool is closed"), "deals": N_("after a number of deals"),
         "pool_sum": N_("when the pools together reach their targets"), "agreement": N_("by agreement")}),
    "max_deals": OptionWords("pulka", N_("Number of deals"), N_("For a pulka that ends after a number of deals")),
    "rounding": OptionWords(
        "pulka", N_("Rounding"), N_("How the settlement is rounded"),
        {"exact": N_("exact (fractions kept)"), "half_up": N_("to whole whists"),
         "kodeks_shift": N_("the Kodeks' shift (four players)"), "per_transfer": N_("each share to a whole whist")}),
}


def option_name(field_name: str, lang: str = "en") -> str:
    """An option's name in ``lang`` (the field itself when it has no words)."""
    words = WORDS.get(field_name)
    return Translator(lang)(words.name) if words is not None else field_name


def choice_name(field_name: str, value: str, lang: str = "en") -> str:
    """The label of one choice of an option in ``lang`` (the value itself when it has none)."""
    words = WORDS.get(field_name)
    label = words.choices.get(value) if words is not None else None
    return Translator(lang)(label) if label else value


class Option(str):
    """An option named in a message: ``str()`` and English give the field (``hold_rule``, as
    ``--set`` and rules.md §13 write it), Russian its Russian name in quotes («Кто может сказать «здесь»»)."""

    def tr(self, lang: str) -> str:
        if lang == "en" or str(self) not in WORDS:
            return str(self)
        return "«" + option_name(str(self), lang) + "»"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Option, (str(self),))


class OptionValue(str):
    """One value of a choice option in a message: the value in English, its label in Russian."""

    option: str

    def __new__(cls, option: str, value: str) -> OptionValue:
        self = str.__new__(cls, value)
        self.option = option
        return self

    def tr(self, lang: str) -> str:
        return str(self) if lang == "en" else choice_name(self.option, str(self), lang)

    def __reduce__(self) -> tuple[Any, ...]:
        return (OptionValue, (self.option, str(self)))
