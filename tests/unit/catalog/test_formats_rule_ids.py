"""The format schema's enum of rule ids and the rule registry are the same set: catalog.formats
(pure, below the decks stage) relies on the schema to refuse an unknown rule."""

from __future__ import annotations

import json
from pathlib import Path

from cardlab.decks.rules import RULES

SCHEMA = Path(__file__).resolve().parents[3] / "schema" / "format.schema.json"


def test_schema_enum_equals_the_rule_registry():
    enum = json.loads(SCHEMA.read_text(encoding="utf-8"))["$defs"]["rule"]["properties"]["rule"]["enum"]
    assert sorted(enum) == sorted(RULES)


def test_an_unknown_rule_id_is_a_schema_problem(tmp_path):
    from cardlab.catalog.validate import check_formats

    folder = tmp_path / "pokemon" / "formats"
    folder.mkdir(parents=True)
    (folder / "odd.yaml").write_text(
        "name: odd\ngame: pokemon\ntitle: Odd\nsections: [{id: main}]\nrules:\n  - rule: deck-sise\n    size: 60\n", encoding="utf-8"
    )
    found, problems = check_formats([tmp_path])
    assert found == {}
    assert [(p.pos.line, p.rule) for p in problems] == [(6, "schema")]
    assert "deck-sise" in problems[0].message
