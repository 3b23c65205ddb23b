"""The server in the players' words: the options form's words, a refused option named in the player's
language, bots and unnamed players named in the table's language, the house rules, the deal explaining
itself, the record in the downloader's language, the cards in Т К Д В."""

from __future__ import annotations

import dataclasses
from typing import Any

from latin_helpers import latin_words
from preferans.i18n import Translator
from preferans.option_words import WORDS
from preferans.record import loads
from preferans.rules import CHOICES, Rules
from server_helpers import cookie, create_table, make_client, pick


def test_the_options_form_has_every_option_in_words(tmp_path: Any) -> None:
    """GET /api/presets lists every Rules field but the preset's label and the pool, each with a group,
    a kind for its control, a name and a one-line explanation in both languages, a label per choice."""
    with make_client(str(tmp_path / "g.db")) as client:
        d = client.get("/api/presets").json()
    fields = {o["field"]: o for o in d["options"]}
    assert set(fields) == {f.name for f in dataclasses.fields(Rules)} - {"name", "pool_target"}
    groups = [g for g, _ in d["groups"]]
    ru = Translator("ru")
    for name, o in fields.items():
        assert o["group"] in groups and o["name"] == WORDS[name].name
        assert o["kind"] in ("bool", "choice", "int", "fraction", "levels")
        for words in (o["name"], o["help"]):  # Russian as players say it, no field names
            assert (ru(words) != words or "«" in words) and not latin_words(ru(words)), (name, ru(words))
        if o["kind"] == "choice":
            assert [v for v, _ in o["choices"]] == list(CHOICES[name])
            assert all(not latin_words(ru(label)) for _, label in o["choices"]), name
    assert fields["za_svoimi"]["kind"] == "bool" and fields["k_mount"]["kind"] == "fraction"
    assert fields["raspas_exit_levels"]["kind"] == "levels" and fields["bomb_limit"]["kind"] == "int"


def test_a_refused_option_is_named_in_the_players_language(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        r = client.post("/api/tables", json={"name": "Аня", "options": ["bomb_limit=3"], "lang": "ru"})
        assert r.status_code == 400
        body = r.json()
        assert "bomb_limit" in body["message"] and "bomb_limit" in body["texts"]["en"]  # English: the field
        assert body["texts"]["ru"] == "«Предел бомбы»: нужна степень двойки (2, 4, 8…), а не 3"
        r = client.post("/api/tables", json={"options": ["raspas_talon=participates"], "players": 3})
        assert r.status_code == 400 and "вчетвером" in r.json()["texts"]["ru"]  # checked against the players
        r = client.post("/api/tables", json={"options": ["misere_pool=many"]})
        ru = r.json()["texts"]["ru"]
        assert r.status_code == 400 and ru.startswith("«В пулю за чистый мизер»") and "целое число" in ru
        assert not latin_words(ru.replace("'many'", ""))


def test_bots_and_unnamed_players_speak_the_tables_language(tmp_path: Any) -> None:
    """«Бот 2», «Игрок 3» on a table made in Russian (they are written on the sheet and in the record);
    the house rules (options changed from the preset) are on every state, named in both languages."""
    with make_client(str(tmp_path / "g.db")) as client:
        tid, _ = create_table(client, name="", lang="ru", options=["za_svoimi=true", "misere_pool=12"],
                              seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}])  # fmt: skip
        client.post(f"/api/tables/{tid}/seats/2", json={"name": ""})
        info = client.get(f"/api/tables/{tid}").json()
        assert [s["name"] for s in info["seats"]] == ["Игрок 1", "Бот 2", "Игрок 3"]
        changes = {c["field"]: c for c in info["changes"]}
        assert set(changes) == {"za_svoimi", "misere_pool"}
        assert changes["za_svoimi"]["name"]["ru"] == "«За своими»" and changes["za_svoimi"]["value"]["ru"] == "да"
        assert changes["misere_pool"]["value"] == {"en": "12", "ru": "12"}
        tid, _ = create_table(client, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
        assert [s["name"] for s in client.get(f"/api/tables/{tid}").json()["seats"]][1:] == ["Bot 2", "Bot 3"]


def test_the_deal_explains_itself_and_the_record_speaks_the_players_language(tmp_path: Any) -> None:
    import random

    with make_client(str(tmp_path / "g.db")) as client:
        tid, token = create_table(client, name="Аня", lang="ru", seats=[{"kind": "human"}, {"kind": "bot"},
                                                                          {"kind": "bot"}])  # fmt: skip
        rng = random.Random(3)
        with client.websocket_connect(f"/ws/{tid}", headers=cookie(tid, token)) as ws:
            seen = -1
            while True:  # the person plays at random, the bots their seats, until the deal is over
                f = ws.receive_json()
                if f["type"] != "state" or f["n"] == seen:
                    continue
                seen = f["n"]
                if f["view"]["phase"] == "over":
                    break
                if f["view"]["to_act"] == 0:
                    ws.send_json({"type": "act", "action": pick(f["view"], rng), "n": f["n"]})
            ws.send_json({"type": "stop"})
            while not (f["type"] == "state" and f["table"]["status"] == "finished"):
                f = ws.receive_json()
        result = f["table"]["result"]
        story = result["story"]
        assert len(story["en"]) == len(story["ru"]) >= len(result["written"])
        names = [s["name"] for s in f["table"]["seats"]]
        for line in story["ru"]:
            assert not latin_words(line, names, ranks="ru"), line
        entries = story["ru"][len(story["ru"]) - len(result["written"]) :]  # after the reason, if there is one
        for line, (_, player, amount, _on, _why) in zip(entries, result["written"], strict=True):
            assert line.startswith(names[player]) and amount in line and " — " in line
        mine = cookie(tid, token)
        text = client.get(f"/api/tables/{tid}/record?lang=ru", headers=mine).text
        assert "lang: ru" in text and "event: Партия на сервере преферанса" in text
        rec = loads(text)  # the readers take it as it stands
        assert rec.headers["lang"] == "ru" and len(rec.deals) == 1
        js = client.get(f"/api/tables/{tid}/record?format=json&lang=en", headers=mine).json()
        assert js["headers"]["lang"] == "en" and js["headers"]["event"] == "A game on the Preferans server"


def test_the_cards_in_russian_rank_letters(tmp_path: Any) -> None:
    with make_client(str(tmp_path / "g.db")) as client:
        ru = client.get("/cards/sprite.svg?ranks=ru").text
        en = client.get("/cards/sprite.svg").text
    for letter in "ТКДВ":
        assert f">{letter}<" in ru
    assert ">A<" in en and ">Т<" not in en and ">A<" not in ru
