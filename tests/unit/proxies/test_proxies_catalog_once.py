"""cardlab proxies opens the catalog and its formats once, as ``deck validate`` does
(:func:`cardlab.index.stored.open_catalog`): with a fresh index, no catalog file is validated again."""

from __future__ import annotations

import shutil
from pathlib import Path

from cardlab.proxies import pdf as px

REPO = Path(__file__).resolve().parents[3]
ZAP = REPO / "examples" / "decks" / "zap-theme-deck.txt"


def test_select_on_a_fresh_index_validates_nothing(tmp_path, monkeypatch):
    import cardlab.catalog.validate as validate_module

    root = tmp_path / "catalog"
    for part in ("base1", "formats"):
        shutil.copytree(REPO / "cards" / "pokemon" / part, root / "pokemon" / part)
    db = tmp_path / "index.sqlite"
    first = px.select([root], db, ZAP, format_name="pokemon-base")  # builds the index
    calls: list[str] = []
    for name in ("validate", "load_formats", "load_catalog"):
        real = getattr(validate_module, name)
        monkeypatch.setattr(validate_module, name, lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k))
    again = px.select([root], db, ZAP, format_name="pokemon-base")
    assert calls == []
    assert again.card_ids == first.card_ids
    assert len(again.card_ids) == 60
    assert (again.title, again.catalog_problems, again.problems) == ("zap-theme-deck", [], [])
