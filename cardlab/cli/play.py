"""``cardlab play ...`` (the four mini-games of seed 002, saved turn by turn) and ``cardlab odds ...``
(their exact odds): thin commands over :mod:`cardlab.play`. Output: ``--output-format/-O``
text|markdown|bbcode|json (forum posts); ``-o`` writes to a file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cardlab.cli.collection import open_for_reading
from cardlab.cli.errors import finish, user_errors
from cardlab.cli.options import CatalogOpt, LangOpt, PostOutput, PostOutputOpt, ReportOutput, ReportOutputOpt, langs_of, roots_and_db
from cardlab.core.l10n import _, pgettext

if TYPE_CHECKING:
    from cardlab.play.odds import OddsTable
    from cardlab.play.store import GameRecord
    from cardlab.play.thread import Played

play_app = typer.Typer(
    help="Play the forum TCG's mini-games (Los Lobos, Doll House, Ryūjin Jakka, Zangetsu), turn by turn.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
odds_app = typer.Typer(help="Exact odds of the mini-games (fractions and percents).", no_args_is_help=True, rich_markup_mode=None)

OutFmt = PostOutputOpt
OutFile = Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the post to this file instead of printing it.")]
GameArg = Annotated[str, typer.Argument(metavar="GAME", help="The game number (see 'cardlab play list').")]


def _emit(text: str, output: Path | None, overwrite: bool = False) -> None:
    import sys

    if output is None:
        sys.stdout.write(text)
        return
    from cardlab.core.fs import atomic_write

    typer.echo(f"wrote {atomic_write(output, text, overwrite, example='game.txt')}", err=True)


def _show(rec: GameRecord, played: Played, fmt: str, output: Path | None, last: bool = False, overwrite: bool = False) -> None:
    """Print the thread (or, after a command that adds a post, ``last``: that post alone)."""
    from cardlab.render.forum import render

    _emit(render(rec, played, fmt, [played.posts[-1].number] if last and fmt != "json" else None), output, overwrite)


def _pairs(values: list[str] | None, option: str) -> dict[str, str]:
    from cardlab.core.errors import UsageError

    out: dict[str, str] = {}
    for v in values or []:
        player, sep, rest = v.partition(":")
        if not sep or not player.strip() or not rest.strip():
            raise UsageError(f"{option} takes PLAYER:VALUE, not '{v}'")
        if player.strip() in out:
            raise UsageError(
                f"{option}: one per player ('{player.strip()}' twice; seed 002 puts one card at stake, 'une seule'; cardlab reads it as one per player)"
            )
        out[player.strip()] = rest.strip()
    return out


@play_app.command("new")
def new(
    kind: Annotated[str, typer.Argument(metavar="GAME", help="los-lobos, doll-house, ryujin-jakka or zangetsu.")],
    player: Annotated[list[str], typer.Option("--player", "-p", help="A player (repeat, in play order).")],
    set_code: Annotated[Optional[str], typer.Option("--set", help="Los Lobos, Zangetsu: the set whose Commons are drawn.")] = None,
    lists: Annotated[
        Optional[list[str]], typer.Option("--list", help="Doll House, Ryūjin Jakka: PLAYER:FILE, a list of 10 owned cards.")
    ] = None,
    stake: Annotated[Optional[list[str]], typer.Option("--stake", help="PLAYER:CARD, one card the player owns, to the winner.")] = None,
    commit: Annotated[
        bool, typer.Option("--commit", help="Also print the commitment (SHA-256 of the seed) on its own line first.")
    ] = False,
    seed: Annotated[Optional[str], typer.Option("--seed", help="The host's seed (hex) instead of a fresh random one.")] = None,
    without_replacement: Annotated[
        bool, typer.Option("--without-replacement", help="Drawn cards leave the pool (default: a forum draw, with replacement).")
    ] = False,
    independent_reroll: Annotated[
        bool, typer.Option("--independent-reroll", help="Doll House variant: an Independent grants an extra roll.")
    ] = False,
    points: Annotated[int, typer.Option("--points", help="Ryūjin Jakka: points to win (default 3).")] = 3,
    best_of: Annotated[Optional[int], typer.Option("--best-of", help="Ryūjin Jakka: best of N manches.")] = None,
    burn_out: Annotated[bool, typer.Option("--burn-out", help="Ryūjin Jakka: play until one list is all burned.")] = False,
    output_format: OutFmt = PostOutput.text,
    catalog: CatalogOpt = None,
    lang: LangOpt = None,
) -> None:
    """Start a game: prints its first post (rules, players, stakes, commitment). It stays pending,
    with no draw, until every player accepts ('cardlab play accept').

    Example: cardlab play new los-lobos -p alice -p bob --set ftcg-base
    """
    langs_of(lang)
    from cardlab.catalog.validate import validate
    from cardlab.collection import db
    from cardlab.core.errors import CatalogError, UsageError
    from cardlab.play import rng, store
    from cardlab.play import setup as setups

    roots, _db = roots_and_db(catalog, None)
    with user_errors():
        raw_seed = None
        if seed is not None:
            try:
                raw_seed = rng.parse_seed(seed)
            except ValueError as err:
                raise UsageError(f"--seed: {err}") from None
        stakes_in = _pairs(stake, "--stake")
        list_files = {p: Path(f) for p, f in _pairs(lists, "--list").items()}
        result = validate(list(roots))
        if result.problems:
            raise CatalogError(result.problems)
        con = db.connect()
        setup = setups.build_setup(
            result.catalog,
            result.formats,
            con,
            kind,
            player,
            set_code=set_code,
            lists=list_files,
            replacement=not without_replacement,
            independent_reroll=independent_reroll,
            points=points,
            best_of=best_of,
            burn_out=burn_out,
        )
        stakes = setups.resolve_stakes(result.catalog, con, setup["players"], stakes_in)
        raw_seed = raw_seed if raw_seed is not None else rng.new_seed()
        if commit:
            typer.echo(_("commitment (SHA-256 of the seed): {commitment}").format(commitment=rng.commitment(raw_seed)))
        rec, played = store.create(con, setup, stakes, raw_seed)
    _show(rec, played, output_format.value, None)
    typer.echo(
        _("game #{n} is pending: each player accepts with 'cardlab play accept {n} -p NAME [--contribution WORD]'").format(n=rec.id),
        err=True,
    )


@play_app.command("show")
def show(
    game: GameArg,
    output_format: OutFmt = PostOutput.text,
    output: OutFile = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace OUTPUT if it exists.")] = False,
    lang: LangOpt = None,
) -> None:
    """Show a game as its forum thread: the first post, each acceptance, move and claim, every draw,
    roll, hand, score, the result and the revealed seed.

    Example: cardlab play show 3 -O bbcode
    """
    langs_of(lang)
    from cardlab.collection import db
    from cardlab.play import store

    with user_errors():
        rec, played = store.state(db.connect(), game)
        _show(rec, played, output_format.value, output, overwrite=overwrite)


PlayerOpt = Annotated[str, typer.Option("--player", "-p", help="The player (a collection's name).")]


@play_app.command("accept")
def accept(
    game: GameArg,
    player: PlayerOpt,
    contribution: Annotated[
        Optional[str], typer.Option("--contribution", help="The player's own word mixed into the seed (default: random hex).")
    ] = None,
    output_format: OutFmt = PostOutput.text,
    lang: LangOpt = None,
) -> None:
    """Accept a pending game's rules and stakes; the last acceptance starts the draws.

    Example: cardlab play accept 3 -p bob --contribution 7f3a91c2
    """
    langs_of(lang)
    from cardlab.collection import db
    from cardlab.play import store

    with user_errors():
        rec, played = store.accept(db.connect(), game, player, contribution)
    _show(rec, played, output_format.value, None, last=True)


@play_app.command("decline")
def decline(game: GameArg, player: PlayerOpt, output_format: OutFmt = PostOutput.text, lang: LangOpt = None) -> None:
    """Refuse a pending game: it is cancelled and its stakes are free.  Example: cardlab play decline 3 -p bob"""
    langs_of(lang)
    from cardlab.collection import db
    from cardlab.play import store

    with user_errors():
        rec, played = store.decline(db.connect(), game, player)
    _show(rec, played, output_format.value, None, last=True)


@play_app.command("claim")
def claim(game: GameArg, player: PlayerOpt, output_format: OutFmt = PostOutput.text, lang: LangOpt = None) -> None:
    """Win by forfeit a game whose opponents have not answered for more than 7 days (seed 002).

    Example: cardlab play claim 3 -p alice
    """
    langs_of(lang)
    from cardlab.collection import db
    from cardlab.play import store

    with user_errors():
        rec, played = store.claim(db.connect(), game, player)
    _show(rec, played, output_format.value, None, last=True)


@play_app.command("replace")
def replace(
    game: GameArg,
    player: Annotated[str, typer.Option("--player", "-p", help="Who replaces.")],
    cards: Annotated[Optional[str], typer.Option("--cards", help="Positions 1-5 to replace, e.g. 2,5.")] = None,
    keep: Annotated[bool, typer.Option("--keep", help="Keep the hand (no replacement).")] = False,
    output_format: OutFmt = PostOutput.text,
    lang: LangOpt = None,
) -> None:
    """Los Lobos: replace chosen cards once (or keep the hand).  Example: cardlab play replace 3 -p alice --cards 2,5"""
    langs_of(lang)
    from cardlab.collection import db
    from cardlab.core.errors import UsageError
    from cardlab.play import store

    with user_errors():
        if keep == (cards is not None):
            raise UsageError(_("give --cards POSITIONS or --keep"))
        slots: list[int] = []
        for part in (cards or "").split(","):
            if part.strip():
                if not part.strip().isdigit() or not 1 <= int(part) <= 5:
                    raise UsageError(f"--cards takes positions 1 to 5, e.g. 2,5 (not '{part.strip()}')")
                slots.append(int(part))
        if cards is not None and not slots:
            raise UsageError("--cards takes positions 1 to 5, e.g. 2,5; use --keep to keep the hand")
        con = db.connect()
        rec = store.load(con, game)
        if rec.kind != "los-lobos":
            raise UsageError(_("game #{n} is {kind}; replacing cards is a Los Lobos move").format(n=rec.id, kind=rec.kind))
        rec, played = store.play_move(con, game, {"move": "replace", "player": player, "cards": slots})
    _show(rec, played, output_format.value, None, last=True)


@play_app.command("roll")
def roll(
    game: GameArg,
    to_end: Annotated[bool, typer.Option("--to-end", help="Roll round after round until the game is over.")] = False,
    player: Annotated[Optional[str], typer.Option("--player", "-p", help="Who asks for the roll (counts as their answer).")] = None,
    output_format: OutFmt = PostOutput.text,
    lang: LangOpt = None,
) -> None:
    """Doll House, Ryūjin Jakka: play one round (every player rolls at once).  Example: cardlab play roll 4"""
    langs_of(lang)
    from cardlab.collection import db
    from cardlab.core.errors import UsageError
    from cardlab.play import store

    with user_errors():
        con = db.connect()
        rec = store.load(con, game)
        if rec.kind not in ("doll-house", "ryujin-jakka"):
            raise UsageError(_("game #{n} is {kind}; rolls are Doll House and Ryūjin Jakka moves").format(n=rec.id, kind=rec.kind))
        rec, played = store.play_move(con, game, {"move": "roll", "player": player}, until_over=to_end)
    _show(rec, played, output_format.value, None, last=True)


@play_app.command("reveal")
def reveal(game: GameArg, lang: LangOpt = None) -> None:
    """Print a finished game's seed (hex), whose SHA-256 is the commitment.  Example: cardlab play reveal 3"""
    langs_of(lang)
    from cardlab.collection import db
    from cardlab.play import store

    with user_errors():
        seed = store.reveal(db.connect(), game)
    typer.echo(seed)


@play_app.command("verify")
def verify(
    file: Annotated[Path, typer.Argument(help="The thread's posts as pasted from the forum (or a 'play show -O json' export).")],
    seed: Annotated[Optional[str], typer.Option("--seed", help="For a JSON export: the revealed seed (hex), if not in the file.")] = None,
    lang: LangOpt = None,
) -> None:
    """Check a game from its posts alone: exit 0 "verified", 1 with the first post and line that
    does not follow from the seed, 2 for an unreadable file.

    Example: cardlab play verify thread.txt
    """
    langs_of(lang)
    import json

    from cardlab.core.errors import InputError
    from cardlab.core.inputs import LoadError, read_text
    from cardlab.play import store
    from cardlab.play.verify import verify_text

    with user_errors():
        try:
            text = read_text(file)
        except LoadError as err:
            raise InputError(str(err)) from None
        if text.lstrip().startswith("{"):
            try:
                record = json.loads(text)
            except ValueError as err:
                raise InputError(f"{file}: cannot read a game record ({err})") from None
            ok, findings = store.verify(record, seed, str(file))
            for f in findings:
                typer.echo(_("mismatch: {problem}").format(problem=f), err=True)
            if ok:
                typer.echo(
                    _("verified: the seed matches the commitment and replays all {n} events and the result").format(n=len(record["events"]))
                )
            finish(ok)
        verdicts = verify_text(text)
    for v in verdicts:
        if v.ok:
            typer.echo(_("verified: game {game}, posts 1 to {n} follow from the revealed seed").format(game=v.game, n=v.posts))
        else:
            typer.echo(_("game {game}: {problem}").format(game=v.game, problem=v.problem), err=True)
    finish(all(v.ok for v in verdicts))


@play_app.command("list")
def list_games(lang: LangOpt = None) -> None:
    """List saved games, newest first.  Example: cardlab play list"""
    langs_of(lang)
    from cardlab.collection import db
    from cardlab.play import store
    from cardlab.play.thread import TITLES

    with user_errors():
        reader = open_for_reading()  # no database file yet: no game, and none is created
        if reader is not None:
            reader.close()
        found = store.games(db.connect()) if reader is not None else []
    for rec in found:
        res = rec.result or {}
        if rec.status == "over":
            state = (
                pgettext("game state", "cancelled")
                if res.get("cancelled")
                else pgettext("game state", "draw")
                if res.get("draw")
                else _("{player} won").format(player=res.get("winner"))
            )
        else:
            state = (
                pgettext("game state", "pending")
                if rec.status == "pending"
                else pgettext("game state", "on")
                if rec.status == "on"
                else rec.status
            )
        typer.echo(f"#{rec.id}  {TITLES[rec.kind]:<13} {', '.join(rec.setup['players'])}  {state}  {rec.created}")


# --- odds ----------------------------------------------------------------------------------------


def _odds_out(table: OddsTable, output_format: str) -> None:
    import json

    from cardlab.play.odds import as_text

    typer.echo(json.dumps(table.to_json(), ensure_ascii=False, indent=2) if output_format == "json" else as_text(table))


def _pool_values(catalog: list[Path] | None, set_code: str) -> list[int]:
    """The Values of a set's draw pool: its Commons (seed 002 "Los Lobos" and "Zangetsu": "les cartes
    du tirage", "cartes Communes")."""
    from cardlab.catalog.validate import load_catalog
    from cardlab.play.setup import draw_pool

    roots, _db = roots_and_db(catalog, None)
    with user_errors():
        return [c["value"] for c in draw_pool(load_catalog(roots), set_code)]


@odds_app.command("los-lobos")
def odds_los_lobos(
    set_code: Annotated[str, typer.Option("--set", help="The set whose Commons are drawn.")],
    without_replacement: Annotated[bool, typer.Option("--without-replacement", help="Draws leave the pool.")] = False,
    output_format: ReportOutputOpt = ReportOutput.text,
    catalog: CatalogOpt = None,
) -> None:
    """Exact odds of each Los Lobos hand class on the first five draws.  Example: cardlab odds los-lobos --set ftcg-base"""
    from cardlab.play import odds

    values = _pool_values(catalog, set_code)
    with user_errors():
        table = odds.los_lobos(values, replacement=not without_replacement)
    _odds_out(table, output_format.value)


@odds_app.command("zangetsu")
def odds_zangetsu(
    set_code: Annotated[str, typer.Option("--set", help="The set whose Commons are drawn.")],
    output_format: ReportOutputOpt = ReportOutput.text,
    catalog: CatalogOpt = None,
) -> None:
    """Exact odds of Zangetsu sums, of a tie after three cards and of the tie-break's length (2 players).

    Example: cardlab odds zangetsu --set ftcg-base
    """
    from cardlab.play import odds

    values = _pool_values(catalog, set_code)
    with user_errors():
        table = odds.zangetsu(values)
    _odds_out(table, output_format.value)


@odds_app.command("doll-house")
def odds_doll_house(
    list_file: Annotated[Path, typer.Option("--list", help="A list of 10 cards (deck-list text).")],
    output_format: ReportOutputOpt = ReportOutput.text,
    catalog: CatalogOpt = None,
    independent_reroll: Annotated[bool, typer.Option("--independent-reroll", help="The Independent extra-roll variant.")] = False,
) -> None:
    """Exact odds of a Doll House on the first 4 rolls and the expected number of rounds (one player).

    Example: cardlab odds doll-house --list my-list.txt
    """
    from cardlab.catalog.validate import validate
    from cardlab.core.errors import CatalogError
    from cardlab.play import odds
    from cardlab.play.setup import read_list

    roots, _db = roots_and_db(catalog, None)
    with user_errors():
        result = validate(list(roots))
        if result.problems:
            raise CatalogError(result.problems)
        cards = read_list(list_file, result.catalog, result.formats)
        table = odds.doll_house([c["faction"] for c in cards], independent_reroll=independent_reroll)
    _odds_out(table, output_format.value)


def _shortcut(kind: str, title: str) -> Callable[..., None]:
    """``cardlab play <game> ...``: the same command as ``play new <game> ...``."""
    import inspect
    import typing

    def command(**options: object) -> None:
        new(kind=kind, **options)  # type: ignore[arg-type]

    hints = typing.get_type_hints(new, include_extras=True)
    sig = inspect.signature(new)
    params = [p.replace(annotation=hints[p.name]) for p in sig.parameters.values() if p.name != "kind"]
    command.__signature__ = sig.replace(parameters=params, return_annotation=None)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: hints[p.name] for p in params}
    command.__doc__ = f"Start a {title} game: the same as 'cardlab play new {kind}'."
    return command


for _kind, _title in (("los-lobos", "Los Lobos"), ("doll-house", "Doll House"), ("ryujin-jakka", "Ryūjin Jakka"), ("zangetsu", "Zangetsu")):
    play_app.command(_kind)(_shortcut(_kind, _title))


def register(app: typer.Typer) -> None:
    """Mount ``play`` and ``odds`` on ``app``."""
    app.add_typer(play_app, name="play")
    app.add_typer(odds_app, name="odds")
