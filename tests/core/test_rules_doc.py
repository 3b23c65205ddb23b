"""docs/rules.md documents every Rules field: its §13 table is exactly what
``preferans rules --markdown`` prints, so a new field or a changed default shows
up as a failing test until the document says it."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from preferans.cli.rules import describe, diff, markdown_table
from preferans.rules import OPTION_DOCS, PRESETS, Rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
BEGIN, END = "<!-- options table: begin -->\n", "<!-- options table: end -->"


def test_every_field_has_its_documentation() -> None:
    assert {f.name for f in fields(Rules)} == set(OPTION_DOCS)
    for name, doc in OPTION_DOCS.items():
        assert doc.meaning and doc.who and doc.source, name
        assert doc.section.startswith("§"), name


def test_the_table_of_docs_rules_md_is_up_to_date() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index(BEGIN) + len(BEGIN) : text.index(END)].strip()
    assert table == markdown_table(), (
        "docs/rules.md §13 is out of date: paste the output of `preferans rules --markdown` "
        "between the options-table markers"
    )


def test_every_section_the_options_cite_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    heads = {line.split()[1].rstrip(".") for line in text.splitlines() if line.startswith("#") and "§" not in line
             and len(line.split()) > 1 and line.split()[1][0].isdigit()}  # fmt: skip
    for name, doc in OPTION_DOCS.items():
        number = doc.section.lstrip("§")
        top = ".".join(number.split(".")[:2])
        assert top in heads or number.split(".")[0] in heads, f"{name}: docs/rules.md has no {doc.section}"


def test_describe_lists_every_value_of_a_preset() -> None:
    text = describe(PRESETS["leningrad"])
    for f in fields(Rules):
        if f.name != "name":
            assert f"\n{f.name}=" in text


def test_diff_names_exactly_the_fields_that_differ() -> None:
    a, b = PRESETS["sochi"], PRESETS["leningrad"]
    text = diff(a, b)
    differing = [f.name for f in fields(Rules) if f.name != "name" and getattr(a, f.name) != getattr(b, f.name)]
    assert text.startswith(f"{len(differing)} options differ")
    listed = [line.split()[0] for line in text.splitlines()[2:] if not line.startswith(" ")]
    assert listed == differing
    assert diff(a, a) == "sochi and sochi have the same options"
