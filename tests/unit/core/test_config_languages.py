"""cardlab.core.config: preferred languages from --lang, CARDLAB_LANG, the config file, or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.cli.whole import app
from cardlab.core import config as config
from cardlab.core.errors import DataError, UsageError

pytestmark = pytest.mark.usefixtures("no_user_config")


def test_nothing_configured_gives_an_empty_list():
    assert config.preferred_languages(None) == []
    assert config.preferred_languages("") == []


@pytest.mark.parametrize(
    ("option", "langs"),
    [
        ("fr", ["fr"]),
        ("fr,de", ["fr", "de"]),
        (" FR , de,fr ", ["fr", "de"]),
        ("pt_br,ja", ["pt-BR", "ja"]),
    ],
)
def test_option(option, langs):
    assert config.preferred_languages(option) == langs


@pytest.mark.parametrize("bad", ["français", "f", "fr;de", "12"])
def test_bad_option_is_a_usage_error(bad):
    with pytest.raises(UsageError, match="is not a language code"):
        config.preferred_languages(bad)


def test_environment_comes_after_the_option(monkeypatch):
    monkeypatch.setenv("CARDLAB_LANG", "de,it")
    assert config.preferred_languages(None) == ["de", "it"]
    assert config.preferred_languages("fr") == ["fr"]
    monkeypatch.setenv("CARDLAB_LANG", "deutsch")
    with pytest.raises(UsageError, match="CARDLAB_LANG: 'deutsch' is not a language code"):
        config.preferred_languages(None)


def test_config_file_comes_last(monkeypatch, tmp_path, write_config):
    write_config('# my settings\nlanguages = ["fr", "en"]\n')
    assert config.preferred_languages(None) == ["fr", "en"]
    monkeypatch.setenv("CARDLAB_LANG", "ja")
    assert config.preferred_languages(None) == ["ja"]
    assert config.preferred_languages("de") == ["de"]


def test_config_file_accepts_a_comma_string(monkeypatch, tmp_path, write_config):
    write_config('languages = "it, en"\n')
    assert config.preferred_languages(None) == ["it", "en"]


def test_config_file_without_languages(monkeypatch, tmp_path, write_config):
    write_config("# nothing set\n")
    assert config.preferred_languages(None) == []


@pytest.mark.parametrize(
    ("text", "where", "fragment"),
    [
        ('theme = "dark"\n', "1:1", "unknown setting 'theme'"),
        ('languages = ["fr"]\nlanguage = "de"\n', "2:1", "unknown setting 'language'; did you mean 'languages'?"),
        ('# c\u2028still a comment\n  Languages = ["fr"]\n', "2:3", "unknown setting 'Languages'; did you mean 'languages'?"),
        ("[languages2]\nx = 1\n", "1:2", "unknown setting 'languages2'"),
        ('"lang uages" = 1\n', "1:1", "unknown setting 'lang uages'"),
    ],
)
def test_config_unknown_keys_are_reported(monkeypatch, tmp_path, text, where, fragment, write_config):
    """Kind: config settings ignored silently (a typo): every unknown key is reported at its line
    and column, lines counted as editors count them."""
    path = write_config(text)
    with pytest.raises(config.ConfigError) as err:
        config.preferred_languages(None)
    assert str(err.value).startswith(f"{path}:{where}: {fragment}")


@pytest.mark.parametrize("text", ["languages = " + "9" * 5000 + "\n", "x = " + "9" * 5000 + "\n"])
def test_config_huge_number(monkeypatch, tmp_path, text, write_config):
    """Kind: numbers beyond Python's int-conversion limit (tomllib raises ValueError): a config error."""
    write_config(text)
    with pytest.raises(config.ConfigError, match="a number too long"):
        config.preferred_languages(None)


def test_missing_config_named_by_env_is_reported(monkeypatch, tmp_path):
    """Kind: a config file named by CARDLAB_CONFIG that is missing is reported, not ignored."""
    monkeypatch.setenv("CARDLAB_CONFIG", str(tmp_path / "absent.toml"))
    with pytest.raises(config.ConfigError, match="CARDLAB_CONFIG names this config file, which does not exist"):
        config.preferred_languages(None)
    assert config.preferred_languages("fr") == ["fr"]  # --lang does not need the file


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_config_special_file_is_bounded(monkeypatch, tmp_path, special):
    """Kind: reading without limit: a config file that is a device or a FIFO is read at most the
    limit + 1 byte."""
    import os
    import threading

    if special == "fifo":
        fifo = tmp_path / "c.toml"
        os.mkfifo(fifo)

        def feed():
            with open(fifo, "wb") as fh:
                try:
                    while True:
                        fh.write(b"#" * 65536)
                except BrokenPipeError:
                    pass

        threading.Thread(target=feed, daemon=True).start()
        special = str(fifo)
    monkeypatch.setenv("CARDLAB_CONFIG", special)
    with pytest.raises(config.ConfigError, match="more than 1,000,000 bytes"):
        config.preferred_languages(None)


def test_config_file_syntax_error_has_its_position(monkeypatch, tmp_path, write_config):
    path = write_config('\nlanguages = ["fr", \n')
    with pytest.raises(config.ConfigError) as err:
        config.preferred_languages(None)
    problem = err.value.problem
    assert (problem.pos.path, problem.pos.line, problem.rule) == (path, 3, "config")
    assert problem.message.startswith("TOML syntax: ")


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("languages = [\n", ":2:1: ", "TOML syntax: "),
        ('\nlanguages = ["fr", 3]\n', ":2: ", "languages must be a list of language codes"),
        ('languages = ["f r"]\n', ":1: ", "'f r' is not a language code"),
    ],
)
def test_config_file_problems_are_usage_errors_with_the_file_and_line(monkeypatch, tmp_path, text, where, words, write_config):
    path = write_config(text)
    with pytest.raises(UsageError) as err:
        config.preferred_languages(None)
    assert not isinstance(err.value, DataError) and err.value.exit_code == 2
    assert str(err.value).startswith(f"{path}{where}{words}")


def test_config_file_that_is_a_folder_is_a_usage_error(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDLAB_CONFIG", str(tmp_path))
    with pytest.raises(UsageError, match="cannot read the config file"):
        config.preferred_languages(None)


def test_broken_config_through_the_cli_is_a_plain_message(runner, monkeypatch, tmp_path, write_config):
    path = write_config("languages = [\n")
    result = runner.invoke(app, ["i18n", "export"])
    assert result.exit_code == 2
    assert f"error: {path}:2:1: TOML syntax: " in result.stderr
    assert "problem" not in result.stderr and "nothing was changed" not in result.stderr


@pytest.mark.parametrize(
    ("env", "option", "words"),
    [
        ("bad lang", None, "CARDLAB_LANG: 'bad lang' is not a language code"),
        (None, "f r", "'f r' is not a language code"),
    ],
)
def test_bad_language_through_the_cli_is_a_usage_error(runner, monkeypatch, env, option, words):
    if env is not None:
        monkeypatch.setenv("CARDLAB_LANG", env)
    result = runner.invoke(app, ["i18n", "export", *(["--lang", option] if option else [])])
    assert result.exit_code == 2
    assert f"error: {words}" in result.stderr


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("\n\nlanguages = 3\n", "languages must be a list of language codes"),
        ('\n\nlanguages = ["fr", "french"]\n', "'french' is not a language code"),
    ],
)
def test_config_file_bad_languages(monkeypatch, tmp_path, text, words, write_config):
    path = write_config(text)
    with pytest.raises(config.ConfigError) as err:
        config.preferred_languages(None)
    problem = err.value.problem
    assert (problem.pos.path, problem.pos.line) == (path, 3)
    assert words in problem.message


def test_default_config_path_is_in_the_user_config_dir(monkeypatch):
    from platformdirs import user_config_dir

    monkeypatch.delenv("CARDLAB_CONFIG", raising=False)
    assert config.config_path() == Path(user_config_dir("cardlab", appauthor=False)) / "config.toml"


def test_normalize_lang():
    assert config.normalize_lang("FR") == "fr"
    assert config.normalize_lang("pt_br") == "pt-BR"
    assert config.normalize_lang("zh-Hant") == "zh-Hant"
