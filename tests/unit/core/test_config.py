"""cardlab.core.config value by value (issue 16): language codes normalized exactly (regions,
scripts, gettext modifiers), the config file's errors with their exact line, column and wording."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import platformdirs
import pytest

from cardlab.core import config
from cardlab.core.errors import UsageError

pytestmark = pytest.mark.usefixtures("no_user_config")


def _config_error(write_config: Callable[[str], Path], text: str) -> tuple[str, int, int, str]:
    write_config(text)
    with pytest.raises(config.ConfigError) as err:
        config.preferred_languages(None)
    problem = err.value.problem
    assert str(err.value) == f"{problem.pos}: {problem.message}"
    assert problem.rule == "config"
    return problem.pos.path.name, problem.pos.line, problem.pos.col, problem.message


@pytest.mark.parametrize(
    ("code", "normal"),
    [
        ("sr@latin", "sr-Latn"),
        ("sr_RS@latin", "sr-Latn-RS"),
        ("uz@cyrillic", "uz-Cyrl"),
        ("ar@arabic", "ar-Arab"),
        ("hi@devanagari", "hi-Deva"),
        ("yi@hebrew", "yi-Hebr"),
        ("el@greek", "el-Grek"),
        ("zh@hans", "zh-Hans"),
        ("zh_TW@Hant", "zh-Hant-TW"),
        ("ca@valencia", "ca-valencia"),  # a variant goes last
        ("en-us", "en-US"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("de-1996", "de-1996"),  # four digits: not a script
        ("EN_gb", "en-GB"),
        ("fil", "fil"),
        (" fr-ca ", "fr-CA"),
    ],
)
def test_normalize_lang(code, normal):
    """Language lower case, region upper case, script title case, gettext modifiers placed."""
    assert config.normalize_lang(code) == normal


@pytest.mark.parametrize("bad", [" f ", "e@latin", "fran", "fr-", "12"])
def test_normalize_lang_refuses_with_the_code_stripped(bad):
    """The message quotes the code without its spaces and gives examples."""
    with pytest.raises(UsageError) as err:
        config.normalize_lang(bad)
    assert str(err.value) == f"'{bad.strip()}' is not a language code (examples: fr, ja, pt-BR, sr@latin)"


def test_parse_languages_skips_empty_items_and_duplicates():
    """Empty items are skipped; a code given twice (in any spelling) is kept once, first place."""
    assert config.parse_languages("fr,,de, ,FR") == ["fr", "de"]
    assert config.parse_languages("") == []
    assert config.parse_languages("pt_br,pt-BR,en") == ["pt-BR", "en"]


def test_environment_error_names_the_variable(monkeypatch):
    """A bad ``CARDLAB_LANG`` says so first; blank values count as unset."""
    monkeypatch.setenv("CARDLAB_LANG", "fr,zz zz")
    with pytest.raises(UsageError) as err:
        config.preferred_languages(None)
    assert str(err.value) == "CARDLAB_LANG: 'zz zz' is not a language code (examples: fr, ja, pt-BR, sr@latin)"
    monkeypatch.setenv("CARDLAB_LANG", "  ")
    assert config.preferred_languages("  ") == []


def test_config_path_expands_the_home_folder(monkeypatch, tmp_path):
    """``CARDLAB_CONFIG=~/x.toml`` is under the home folder; an empty value is the default path."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CARDLAB_CONFIG", "~/zorb.toml")
    assert config.config_path() == tmp_path / "zorb.toml"
    monkeypatch.setenv("CARDLAB_CONFIG", "")
    assert config.config_path() == tmp_path / "no-config-here" / "cardlab" / "config.toml"


@pytest.mark.parametrize(
    ("text", "line", "col", "message"),
    [
        ('theme = "dark"\n', 1, 1, "unknown setting 'theme'; the config file knows: languages"),
        (
            'languages = ["fr"]\nlanguage = "de"\n',
            2,
            1,
            "unknown setting 'language'; did you mean 'languages'? the config file knows: languages",
        ),
        ("x = 1\n  [ languagez ]\ny = 2\n", 1, 1, "unknown setting 'x'; the config file knows: languages"),
        ("[ languagez ]\ny = 2\n", 1, 3, "unknown setting 'languagez'; did you mean 'languages'? the config file knows: languages"),
        ("\t'zorb' = 1\n", 1, 2, "unknown setting 'zorb'; the config file knows: languages"),
        ("zorb.fen = 1\n", 1, 1, "unknown setting 'zorb'; the config file knows: languages"),
        ("languages = [\n", 2, 1, "TOML syntax: Invalid value"),
        ('languages = "fr\n', 1, 16, "TOML syntax: Illegal character '\\n'"),
        ("\n\nlanguages = 3\n", 3, 0, 'languages must be a list of language codes, e.g. languages = ["fr", "en"]'),
        ('\nlanguages = ["fr", 3]\n', 2, 0, 'languages must be a list of language codes, e.g. languages = ["fr", "en"]'),
        ('languages = ["fr", "f r"]\n', 1, 0, "'f r' is not a language code (examples: fr, ja, pt-BR, sr@latin)"),
    ],
)
def test_config_file_errors_exactly(monkeypatch, tmp_path, text, line, col, message, write_config):
    """Each problem of the config file: its line, column (0: the whole line) and wording."""
    assert _config_error(write_config, text) == ("config.toml", line, col, message)


def test_config_languages_as_a_string_or_list(monkeypatch, tmp_path):
    """``languages`` as a list or a comma string, normalized, duplicates dropped."""
    path = tmp_path / "config.toml"
    monkeypatch.setenv("CARDLAB_CONFIG", str(path))
    path.write_text('languages = ["FR", "pt_br", "fr"]\n', encoding="utf-8")
    assert config.preferred_languages(None) == ["fr", "pt-BR"]
    path.write_text('languages = "de , it"\n', encoding="utf-8")
    assert config.preferred_languages(None) == ["de", "it"]
    path.write_text("languages = []\n", encoding="utf-8")
    assert config.preferred_languages(None) == []


def test_missing_default_config_is_nothing(tmp_path):
    """No file at the default path and no ``CARDLAB_CONFIG``: no languages."""
    assert config.preferred_languages(None) == []


def test_missing_named_config_wording(monkeypatch, tmp_path):
    """A file named by ``CARDLAB_CONFIG`` that does not exist: the whole message."""
    absent = tmp_path / "absent.toml"
    monkeypatch.setenv("CARDLAB_CONFIG", str(absent))
    with pytest.raises(config.ConfigError) as err:
        config.preferred_languages(None)
    assert str(err.value) == f"{absent}: CARDLAB_CONFIG names this config file, which does not exist; create it or unset CARDLAB_CONFIG"


def test_dangling_symlink_config_is_read_not_ignored(monkeypatch, tmp_path):
    """A config path that is a broken symbolic link is an unreadable file, not a missing one."""
    link = tmp_path / "config.toml"
    link.symlink_to(tmp_path / "nowhere.toml")
    monkeypatch.setenv("CARDLAB_CONFIG", str(link))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    with pytest.raises(config.ConfigError) as err:
        config.preferred_languages(None)
    assert "does not exist" not in str(err.value)
    assert err.value.problem.pos.path == link


@pytest.mark.parametrize(
    ("text", "pos"),
    [
        ("languages = 1\n", (1, 1)),
        ("  [ languages ]\n", (1, 5)),
        ("x = 1\n'languages' = 1\n", (2, 1)),
        ('"languages".a = 1\n', (1, 1)),
        ("\tlanguages=1\n", (1, 2)),
        ("languagesx = 1\n", (0, 0)),
        ("# languages = 1\n", (0, 0)),
    ],
)
def test_key_position(text, pos):
    """Where a key is set: ``key =``, quoted, as a table, dotted; never a longer key or a comment."""
    assert config._key_pos(text, "languages") == pos


# The values the sixth mutation run's survivors changed (issue 16): the platform config folder asked
# for, subtags that are not scripts, the "number too long" error's exact position and wording, and a
# ``languages`` string split at commas only.


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
