"""cardlab.core.config: the values that the sixth mutation run's survivors changed (issue 16): the
platform config folder asked for, subtags that are not scripts, the "number too long" error's exact
position and wording, and a ``languages`` string split at commas only."""

from __future__ import annotations

import platformdirs
import pytest

from cardlab.core import config

pytestmark = pytest.mark.usefixtures("no_user_config")


def test_config_path_asks_platformdirs_for_cardlab_without_an_author(monkeypatch, tmp_path):
    """``user_config_dir("cardlab", appauthor=False)``: on Windows an author of None would add a second
    ``cardlab`` folder (``AppData\\cardlab\\cardlab``)."""
    calls = []

    def fake(*args, **kwargs):
        calls.append((args, kwargs))
        return str(tmp_path / "conf")

    monkeypatch.setattr(platformdirs, "user_config_dir", fake)
    assert config.config_path() == tmp_path / "conf" / "config.toml"
    assert calls == [(("cardlab",), {"appauthor": False})]


@pytest.mark.parametrize(
    ("code", "normal"),
    [
        ("ca-es-valencia", "ca-ES-valencia"),  # a variant of 5 to 8 letters stays lower case
        ("de-ch-1901", "de-CH-1901"),
        ("sgn-a1b2", "sgn-a1b2"),  # four characters, not all letters: not a script
        ("zh-yue", "zh-yue"),  # three letters: left as given
    ],
)
def test_only_four_letters_make_a_script(code, normal):
    """A subtag is title-cased (a script) only when it has exactly four letters."""
    assert config.normalize_lang(code) == normal


@pytest.mark.parametrize("text", ["languages = " + "9" * 5000 + "\n", "x = 1\ny = " + "9" * 5000 + "\n"])
def test_number_too_long_is_reported_at_the_files_start(monkeypatch, tmp_path, text, write_config):
    """tomllib gives no position for a number beyond Python's int-conversion limit: line 1, column 1."""
    path = write_config(text)
    with pytest.raises(config.ConfigError) as err:
        config.preferred_languages(None)
    problem = err.value.problem
    assert (problem.pos.path, problem.pos.line, problem.pos.col) == (path, 1, 1)
    assert problem.message == "TOML: a number too long or values nested too deep to read"
    assert str(err.value) == f"{path}:1:1: TOML: a number too long or values nested too deep to read"


@pytest.mark.parametrize(
    ("value", "bad"),
    [("fr de", "fr de"), ("deXX,XXfr", "deXX")],
)
def test_languages_string_is_split_at_commas_only(monkeypatch, tmp_path, value, bad, write_config):
    """``languages = "fr de"`` is one item, not two: refused with the item named."""
    path = write_config(f'languages = "{value}"\n')
    with pytest.raises(config.ConfigError) as err:
        config.preferred_languages(None)
    assert str(err.value) == f"{path}:1: '{bad}' is not a language code (examples: fr, ja, pt-BR, sr@latin)"


def test_undecodable_config_names_the_file(monkeypatch, tmp_path):
    """A config file that is not UTF-8: the error is placed at the byte, in that file."""
    path = tmp_path / "config.toml"
    path.write_bytes(b'languages = "fr\xff"\n')
    monkeypatch.setenv("CARDLAB_CONFIG", str(path))
    with pytest.raises(config.ConfigError) as err:
        config.preferred_languages(None)
    assert str(err.value) == f"{path}:1:16: not UTF-8 text (byte 0xff); save the file as UTF-8"
    assert err.value.problem.pos.path == path
