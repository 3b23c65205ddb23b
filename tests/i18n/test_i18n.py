"""The message catalogs (preferans.i18n): complete, compiled by the standard library's gettext,
plural forms right in both languages, deferred messages that survive the trip to a front end."""

from __future__ import annotations

import gettext
import io
import pickle
import re

import pytest

from preferans import Action, PreferansError
from preferans.actions import NUM_ALL_ACTIONS
from preferans.i18n import LANGS, Call, Joined, Msg, Translator, call_name, catalog_json, text
from preferans.i18n.extract import check, find_all
from preferans.i18n.po import compile_mo, parse_po, write_po


def test_the_catalogs_are_complete() -> None:
    """Every text the code, the web page and its script use is in en.po and ru.po, translated into
    Russian with the same {placeholders}, and nothing unused lingers (python -m preferans.i18n.extract)."""
    problems = check()
    assert not problems, "\n".join(problems)
    assert len(find_all()) > 250  # the finder sees the terminal, the sheets, the engine and the web client


def _russian_form(n: int) -> int:
    """The three Russian forms by hand: 1 сдача, 2–4 сдачи, 5–20 сдач; 21 сдача, 22 сдачи, 111 сдач."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


@pytest.mark.parametrize("n", [*range(0, 30), 100, 101, 102, 105, 111, 112, 114, 121, 1001, 1011])
def test_plural_forms(n: int) -> None:
    forms = ["{n} сдача", "{n} сдачи", "{n} сдач"]
    assert Translator("ru").n("{n} deal", "{n} deals", n) == forms[_russian_form(n)].format(n=n)
    assert Translator("en").n("{n} deal", "{n} deals", n) == (f"{n} deal" if n == 1 else f"{n} deals")


def test_compiled_catalog_is_read_by_the_standard_library() -> None:
    po = (
        'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        '#. a note\nmsgctxt "call"\nmsgid "pass"\nmsgstr "пас"\n\n'
        'msgid "{n} card"\nmsgid_plural "{n} cards"\nmsgstr[0] "{n} карта"\nmsgstr[1] "{n} карт"\n\n'
        '#, fuzzy\nmsgid "doubtful"\nmsgstr "сомнительно"\n\n'
        'msgid "two\\n"\n"lines"\nmsgstr ""\n"две\\n"\n"строки"\n'
    )
    entries = parse_po(po)
    g = gettext.GNUTranslations(io.BytesIO(compile_mo(entries)))
    assert g.pgettext("call", "pass") == "пас" and g.ngettext("{n} card", "{n} cards", 5) == "{n} карт"
    assert g.gettext("doubtful") == "doubtful"  # fuzzy entries are not used
    assert g.gettext("two\nlines") == "две\nстроки"
    assert parse_po(write_po(entries))[2].comments == ["#. a note"] or any(
        e.comments == ["#. a note"] for e in parse_po(write_po(entries))
    )
    assert [(e.context, e.msgid, e.strings) for e in parse_po(write_po(entries))] == [
        (e.context, e.msgid, e.strings) for e in entries
    ]
    with pytest.raises(PreferansError, match=r"catalog:2: unknown keyword 'msgfoo'"):
        parse_po('msgid "a"\nmsgfoo "b"\n')


def test_every_action_has_a_name_in_both_languages() -> None:
    cyrillic = re.compile("[а-яё]")
    for i in range(32, NUM_ALL_ACTIONS):
        a = Action(i)
        ru, en = call_name(str(a), "ru"), call_name(str(a), "en")
        if not a.is_bid or not a.contract or a.contract.without_talon or a.contract.level == 0 or a.is_dark:
            assert cyrillic.search(ru), (str(a), ru)  # a word, not the English id
        assert not cyrillic.search(en) or "«" in en, (str(a), en)
    assert call_name("6NT", "ru") == "6БК" and call_name("A♥", "ru") == "A♥"


def test_deferred_messages() -> None:
    m = Msg("{who} {contract} −{n}", "{who} {contract} −{n}", n=2, who="Anna", contract=Call("7NT"))
    assert m == "Anna 7NT −2" and text(m, "ru") == "Anna 7БК без 2"
    copy = pickle.loads(pickle.dumps(m))
    assert isinstance(copy, Msg) and text(copy, "ru") == "Anna 7БК без 2"
    j = Joined([Call("pass"), Call("misere")])
    assert j == "pass, misère" and text(j, "ru") == "пас, мизер"
    assert text(pickle.loads(pickle.dumps(j)), "ru") == "пас, мизер"
    err = PreferansError(Msg("You do not hold {card}; your cards: {hand}", card="7♠", hand="♥K"))
    assert str(err) == "You do not hold 7♠; your cards: ♥K" and text(err, "ru") == "У вас нет 7♠; ваши карты: ♥K"
    assert text(PreferansError("plain"), "ru") == "plain" and text(3, "ru") == "3"
    with pytest.raises(PreferansError, match="plural message needs n"):
        Msg("{n} deal", "{n} deals")


def test_languages() -> None:
    assert LANGS == ("en", "ru")
    with pytest.raises(PreferansError, match="lang: choose en or ru, not 'de'"):
        Translator("de")
    c = catalog_json("ru")
    assert c["plural"].startswith("(n%10==1") and all(isinstance(v, (str, list)) for v in c["messages"].values())
    assert "call\u0004pass" in c["messages"] and catalog_json("en")["messages"]["call\u0004misere"] == "misère"
