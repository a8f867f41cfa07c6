"""Catalog folders that loop or cannot be read (cardlab.catalog.freshness): one bad entry never
empties a listing, and a folder that cannot be listed is an error, never a smaller catalog."""

from __future__ import annotations

import os

import pytest

from cardlab.catalog import freshness
from cardlab.catalog.validate import validate_paths
from cardlab.cli.whole import app
from cardlab.core.errors import InputError


def test_a_looping_link_in_a_set_is_reported_and_the_rest_checked(catalog_copy, runner):
    base1 = catalog_copy / "pokemon" / "base1"
    os.symlink("99-loop.yaml", base1 / "99-loop.yaml")
    assert len(freshness.yaml_names(base1)) == 104  # set.yaml, 102 cards and the link
    result = validate_paths([], [catalog_copy])
    assert result.files == 111
    assert [(p.pos.path.name, p.rule) for p in result.problems] == [("99-loop.yaml", "file")]
    out = runner.invoke(app, ["validate", "--catalog", str(catalog_copy)])
    assert out.exit_code == 1


@pytest.mark.parametrize("where", ["root", "game"])
def test_a_looping_link_beside_the_games_or_sets_is_not_a_folder(catalog_copy, where):
    folder = catalog_copy if where == "root" else catalog_copy / "pokemon"
    os.symlink("zz", folder / "zz")
    assert [f.name for _kind, f, _game in freshness.folders([catalog_copy])] == ["base1", "formats"]
    assert validate_paths([], [catalog_copy]).files == 110


def test_a_folder_that_cannot_be_listed_is_an_error(catalog_copy, runner, monkeypatch):
    blocked = str(catalog_copy / "pokemon" / "base1")
    listing = os.scandir

    def scandir(path="."):
        if os.fspath(path) == blocked:
            raise PermissionError(13, "Permission denied", blocked)
        return listing(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(InputError) as err:
        validate_paths([], [catalog_copy])
    assert str(err.value) == f"{blocked}: cannot read this catalog folder: Permission denied"
    out = runner.invoke(app, ["validate", "--catalog", str(catalog_copy)])
    assert (out.exit_code, out.stderr) == (2, f"error: {blocked}: cannot read this catalog folder: Permission denied\n")
