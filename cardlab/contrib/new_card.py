"""Contributor workflow: what each set has recorded, and new card files from a skeleton.

- :func:`set_statuses` / :func:`compact_ranges`: ``cardlab sets`` (recorded / printed counts and
  the numbers still missing, e.g. Ippo ``0/162``, missing ``1-162``).
- :func:`new_card`: ``cardlab card new``: writes ``<set folder>/<number>-<slug>.yaml`` from a
  skeleton (:func:`skeleton`: common fields here, the game's own from its module's
  ``SKELETON_KINDS`` and ``skeleton(kind)``: :class:`cardlab.games.base.Game`),
  refusing to overwrite a card, atomically, and refusing to write into the catalog shipped inside
  an installed package (:func:`check_writable`).

No card is invented here: a skeleton holds ``null`` (or ``""`` for a text) where a fact must be
read from a real card, so ``cardlab validate`` fails, with a position, until every fact is filled in.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from cardlab import games
from cardlab.catalog.model import SET_FILE, Catalog, SetInfo
from cardlab.catalog.schemas import validator
from cardlab.catalog.validate import validate
from cardlab.core import paths
from cardlab.core.errors import CardlabError, UsageError
from cardlab.core.fs import OutputError, atomic_write
from cardlab.core.l10n import _
from cardlab.core.text import LANG_RE, fold
from cardlab.core.text import slug as make_slug


@dataclass
class SetStatus:
    """How much of one set is recorded.

    Attributes:
        info: the set.
        recorded: how many cards are recorded.
        read_numbers: returns the collector numbers of the recorded cards (any order), read only
            when :attr:`numbers` or :attr:`missing` is first asked for (a table of every set needs
            neither: its cost is the sets', not the cards').
    """

    info: SetInfo
    recorded: int
    read_numbers: Callable[[], list[str]] = field(repr=False, compare=False)

    @cached_property
    def numbers(self) -> list[str]:
        """Collector numbers of the recorded cards, as strings, sorted numerically."""
        return sorted(self.read_numbers(), key=_number_key)

    @cached_property
    def missing(self) -> list[int] | None:
        """Numbers 1..printed total (or the set's ``total``, secret rares included) with no card,
        ascending; None when the total is unknown."""
        if not isinstance(self.info.printed_total, int):
            return None
        have = {int(n) for n in self.numbers if n.isdigit()}
        last = self.info.data.get("total", self.info.printed_total)
        return [n for n in range(1, last + 1) if n not in have]

    @property
    def counts(self) -> str:
        """``recorded/printed``: ``0/162``, ``102/102``, ``0/?`` when the total is unknown, and
        ``83/82+1`` for a set with cards numbered beyond its printed total (secret rares)."""
        total = self.info.printed_total
        beyond = self.info.data.get("total", total) - total if isinstance(total, int) else 0
        return f"{self.recorded}/{total if total is not None else '?'}{f'+{beyond}' if beyond > 0 else ''}"


def load(roots: list[Path]) -> Catalog:
    """Load the catalog under ``roots`` as it is, problems or not (counts need no valid catalog).

    Uses :func:`cardlab.catalog.validate.validate` (cached per file); files that do not load are
    left out. ``cardlab sets`` reads the index instead (:func:`cardlab.index.stored.open_catalog`).
    """

    return validate(roots).catalog


def _number_key(number: str) -> tuple[int, str]:
    digits = re.match(r"\d+", number)
    return (int(digits.group()) if digits else 0, number)


def set_statuses(catalog: Catalog, code: str | None = None) -> list[SetStatus]:
    """Return the recording status of every set (or of the set ``code`` names), by game then code.

    The counts come from :meth:`Catalog.set_sizes` (on a catalog read from its index, one row a
    set: :mod:`cardlab.index.stored`); the numbers of a set only when its status is asked for them.

    Args:
        catalog: the loaded catalog (:func:`load`).
        code: a set code or alias (case-insensitive), or None for every set.

    Raises:
        UsageError: ``code`` names no set (the message lists the known codes).
    """
    if code is not None:
        infos = [catalog.require_set(code)]
    else:
        infos = sorted(catalog.sets.values(), key=lambda s: (s.game, s.code))
    sizes = catalog.set_sizes()
    return [SetStatus(info, sizes.get(info.code, 0), functools.partial(catalog.set_numbers, info.code)) for info in infos]


def compact_ranges(numbers: list[int]) -> str:
    """Return ``[1, 2, 3, 5, 7, 8]`` as ``"1-3, 5, 7-8"`` (input ascending, no repeats); ``""`` if empty."""
    parts: list[str] = []
    start = prev = None
    for n in [*numbers, None]:
        if n is not None and prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ", ".join(parts)


def missing_text(status: SetStatus) -> str:
    """Return the numbers still to record as ranges (``1-162``), ``none missing``, or a note that
    the set's printed total is unknown (a beta pool) so nothing can be listed (the words in the
    interface language)."""
    if status.missing is None:
        return _("printed total unknown; missing numbers cannot be listed")
    return compact_ranges(status.missing) or _("none missing")


def sets_table(statuses: list[SetStatus], langs: list[str] | None = None) -> list[str]:
    """Return plain-text lines of a table: game, set, recorded/printed, name (header first, in the
    interface language)."""
    rows = [(_("game"), _("set"), _("recorded"), _("name"))]
    rows += [(s.info.game, s.info.code, s.counts, s.info.name(langs or [])) for s in statuses]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return [f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:>{widths[2]}}  {r[3]}".rstrip() for r in rows]


# --- new cards -------------------------------------------------------------------------------


def game_title(game: str) -> str:
    """Return the game's name as people write it (its ``TITLE``: ``Ippo``, ``Monpa``, ``Pokémon``;
    the code itself for a game cardlab does not know)."""
    try:
        return games.get(game).TITLE
    except KeyError:
        return game


def _a(word: str) -> str:
    """``an Ippo``, ``a Monpa``: the indefinite article, by the word's first letter."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


_HEAD = """\
# A new {title} card of set {code}{kind_note}.
# Fill in every `null` and every empty "" with what the printed card shows, delete the optional
# (commented) lines you do not need, then check your work:
#   cardlab validate {path}
# Record facts (numbers, costs, keywords, names); write rules text in your own words (CONTRIBUTING.md).
id: {card_id}  # <set code>-<collector number>: keep in step with `number` and the file name
number: "{number}"  # the collector number as printed, without the set total
name:  # the printed name; {source} (the set's source language) is required, add translations freely
{name_lines}
notes: null  # where these facts come from, e.g. "transcribed from my own copy" (say so: no guessing)
"""
_ILLUSTRATOR = '# illustrator: ""  # optional: the artist credited on the card\n'


def skeleton_kinds(game: str) -> tuple[str, ...]:
    """Return the card kinds ``game`` has skeletons for, the default first (its ``SKELETON_KINDS``).

    Raises:
        KeyError: a game cardlab does not know.
    """
    return tuple(games.get(game).SKELETON_KINDS)


def skeleton(
    game: str,
    kind: str | None,
    *,
    card_id: str,
    number: str,
    source: str,
    name: str | None = None,
    lang: str | None = None,
    path: Path | str = "<file>",
    default_kind: bool = False,
) -> str:
    """Return the YAML text of a new card: the common fields, then the game's own, each with a
    comment saying what goes there; ``null`` (``""`` for a text) marks every fact still to read
    from the card, so that ``cardlab validate`` reports each one with its position.

    Args:
        game, kind: the game and card kind (see :func:`skeleton_kinds`).
        card_id, number: the card's id and collector number.
        source: the set's source language; ``name`` (if given) is in ``lang`` (default ``source``).
        path: shown in the ``cardlab validate`` hint.
        default_kind: ``kind`` was not chosen by the user (the heading says it is the default).
    """
    import json

    lang = lang or source
    lines = [f"  {lang}: {json.dumps(name, ensure_ascii=False)}" if name else f'  {lang}: ""  # required: the name as printed']
    if lang != source:
        lines.append(f'  {source}: ""  # required: the name in {source}, as printed')
    kind_note = ""
    if kind:
        kind_note = f" (kind {kind}" + (": the default; --kind chooses another)" if default_kind else ")")
    text = _HEAD.format(
        title=game_title(game),
        code=card_id.rsplit("-", 1)[0],
        kind_note=kind_note,
        path=path,
        card_id=card_id,
        number=number,
        source=source,
        name_lines="\n".join(lines),
    )
    kinds = skeleton_kinds(game)
    if not kinds:
        return text + _ILLUSTRATOR + f"# Add the other fields of schema/{game}.card.schema.json here.\n"
    own = games.get(game).skeleton(kind or kinds[0], source)
    return text + ("" if re.search(r"^#? ?illustrator:", own, re.M) else _ILLUSTRATOR) + own


def _number_pattern(game: str) -> tuple[str, str]:
    """Return the collector-number pattern of ``game``'s card schema and its description."""

    own = validator(f"{game}.card.schema.json").schema.get("properties", {}).get("number", {})
    if "pattern" in own:
        return own["pattern"], own.get("description", "")
    common = validator("common.schema.json").schema["$defs"]["collector_number"]
    return common["pattern"], common.get("description", "")


def _without_sources(text: str) -> str:
    """Drop the rule-text citations the schemas carry for maintainers: ``(seed 000, 003)``."""
    return re.sub(r"\s*\((?:seeds?|Seeds?) [^)]*\)", "", text)


def check_number(info: SetInfo, number: str) -> str:
    """Return ``number`` stripped if it is a valid collector number of the set ``info``.

    Checks the game schema's number pattern (Ippo: 1..162) and the set's printed total.

    Raises:
        UsageError: the number has the wrong form or is beyond the printed total.
    """
    number = number.strip()
    pattern, description = _number_pattern(info.game)
    if not re.search(pattern, number):
        raise UsageError(
            f"'{number}' is not a collector number of {_a(game_title(info.game))} card: {_without_sources(description) or pattern}"
        )
    digits = re.match(r"\d+", number)
    total = info.printed_total
    if digits and isinstance(total, int) and int(digits.group()) > total:
        raise UsageError(f"collector number {number} is beyond the set's printed total {total}")
    return number


def check_writable(info: SetInfo, folder: Path | None = None) -> None:
    """Refuse to add cards to the catalog shipped inside an installed cardlab package.

    A wheel install keeps its catalog in ``site-packages/cardlab/_data/cards``: a card written there
    alters the installed package, not a checkout, and an upgrade loses it. A checkout (editable
    install), whose shipped catalog is the repository's ``cards/``, is written to as usual.

    Args:
        info: the set; folder: where its new cards go (:func:`write_folder`; default the set's own).

    Raises:
        UsageError: ``folder`` lies in :func:`cardlab.core.paths.shipped_catalog` and that resolves
            under a ``_data`` folder (the message asks for ``--catalog``).
    """

    shipped = paths.installed_catalog_holding(folder / SET_FILE if folder is not None else info.path)
    if shipped is not None:
        raise UsageError(
            f"set {info.code} is in the catalog installed with the cardlab package ({shipped}); new cards "
            "are not written there. Add a folder of your own after it (--catalog shipped --catalog ~/mine: "
            "your cards go there, beside the shipped set), or pass --catalog with the cards/ folder of a "
            "cardlab checkout (git clone the repository first), e.g. --catalog ~/cardlab/cards"
        )


def _has_slug_text(text: str) -> bool:
    """True if ``text`` has a Latin letter or digit to make a file-name slug from."""
    return re.search(r"[a-z0-9]", fold(text)) is not None


def write_folder(catalog: Catalog, info: SetInfo) -> Path:
    """Return the folder new cards of set ``info`` are written to.

    With one catalog root, or when the set's own folder lies in the last root that is not the
    shipped catalog, that folder. With a personal catalog layered over the set's root (the last of
    several roots that is not the shipped catalog: ``--catalog shipped --catalog ~/mine`` or
    ``--catalog ~/mine --catalog shipped``, issue 33 item 5), the personal catalog's folder for the set: the folder of
    its cards of the set already there, else ``<last root>/<game>/<set folder name>/`` (a game
    folder as the last root: ``<root>/<set folder name>/``; the set's folder name as the last root:
    that root), a folder of card files only that joins the set by its name
    (:func:`cardlab.catalog.model.layered_dirs`). Nothing is created here.
    """
    set_dir = info.path.parent
    shipped = paths.shipped_catalog().resolve()
    roots = [r.resolve() for r in catalog.roots]
    personal = [r for r in roots if r != shipped and not r.is_relative_to(shipped)] if len(roots) > 1 else []
    if not personal or set_dir.resolve().is_relative_to(personal[-1]):
        return set_dir
    last = personal[-1]
    mine = sorted(
        path.parent
        for card_id, path in catalog.paths.items()
        if catalog.card_set.get(card_id) == info.code and path.resolve().is_relative_to(last)
    )
    if mine:
        return mine[0]
    if last.name == set_dir.name and last.parent.name == info.game:
        return last
    if last.name == info.game:
        return last / set_dir.name
    return last / info.game / set_dir.name


def make_folder(folder: Path) -> None:
    """Create ``folder`` (a personal catalog's set folder, :func:`write_folder`) and its parents if missing.

    Raises:
        OutputError: it cannot be made (a file in its place, no permission).
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(f"cannot make the folder {folder}: {err.strerror or err}") from None


def card_path(info: SetInfo, number: str, name: str | None = None, slug: str | None = None, folder: Path | None = None) -> Path:
    """Return the file a new card goes to: ``<folder>/<number>-<slug>.yaml``, the folder the set's
    own unless given (:func:`write_folder`).

    The slug is ``slug`` if given, else made from ``name`` (:func:`cardlab.core.text.slug`), else
    ``card``. Only the ``<number>-`` prefix is checked later.

    Raises:
        UsageError: ``slug``, or ``name`` when no ``slug`` is given, has no Latin letter or digit
            (a Japanese name): the file would be ``<number>-card.yaml``; pass ``slug`` instead.
    """
    if slug is not None and not _has_slug_text(slug):
        raise UsageError(
            f"the slug '{slug}' has no Latin letters or digits to name the file with; "
            "pass --slug in Latin script, e.g. the English name (--slug test-jab)"
        )
    if slug is None and name and not _has_slug_text(name):
        raise UsageError(
            f"the name '{name}' has no Latin letters to name the file with; also pass --slug, e.g. the English name (--slug test-jab)"
        )
    text = make_slug(slug or name or "card")
    return (folder or info.path.parent) / f"{number}-{text}.yaml"


def existing_card(catalog: Catalog, info: SetInfo, number: str, folder: Path | None = None) -> Path | None:
    """Return the file already holding card ``<set>-<number>`` (by id, or by file-name prefix in
    the set's folder or ``folder``), or None."""
    card_id = f"{info.code}-{number}"
    if card_id in catalog.paths:
        return catalog.paths[card_id]
    for where in dict.fromkeys([info.path.parent, folder or info.path.parent]):
        for p in sorted(where.glob(f"{number}-*.y*ml")):
            return p
    return None


def write_new(path: Path, text: str) -> None:
    """Write ``text`` to a new file ``path`` atomically, with the mode a new file gets (``0o666`` less
    the umask), through :func:`cardlab.core.fs.atomic_write`.

    Raises:
        CardlabError: ``path`` already exists (it is never overwritten).
    """

    try:
        exists = path.exists()
    except OSError as err:  # ENAMETOOLONG and the like
        raise UsageError(f"cannot write {path}: {err.strerror or err}; give a shorter --slug") from None
    if exists:
        raise CardlabError(f"{path}: already exists; edit that file instead")
    try:
        atomic_write(path, text, overwrite=False, example="1-name.yaml")
    except OutputError:
        if path.exists():  # appeared meanwhile
            raise CardlabError(f"{path}: already exists; edit that file instead") from None
        raise


def new_card(
    catalog: Catalog,
    set_code: str,
    number: str,
    *,
    name: str | None = None,
    lang: str | None = None,
    kind: str | None = None,
    slug: str | None = None,
) -> Path:
    """Write the skeleton of card ``<set>-<number>`` and return its path.

    Args:
        catalog: the loaded catalog (to find the set and existing cards).
        set_code: a set code or alias.
        number: the collector number as printed.
        name: the card's name, written into ``name`` (else left ``""`` to fill in).
        lang: the language of ``name`` (default: the set's source language).
        kind: the card kind the skeleton is for (Ippo ``kind``, Monpa ``type``, Pokémon
            ``supertype`` as ``pokemon``/``trainer``/``energy``); default the first of
            :func:`skeleton_kinds` (Ippo ``blow``, Monpa ``servant``, Pokémon ``pokemon``).
        slug: the file-name slug (default: from ``name``, else ``card``).

    Returns:
        The path of the new file.

    Raises:
        UsageError: unknown set, set in the installed package's catalog (:func:`check_writable`),
            bad number, unknown kind, or no Latin-script slug for a name (:func:`card_path`) (exit 2).
        CardlabError: the card already exists (exit 1); nothing is written.
    """
    info = catalog.require_set(set_code)
    folder = write_folder(catalog, info)
    check_writable(info, folder)
    number = check_number(info, number)
    kinds = skeleton_kinds(info.game)
    if kind is not None and not kind.strip():
        raise UsageError("--kind is empty; leave it out for the default or give one of " + ", ".join(kinds))
    if lang is not None and not LANG_RE.fullmatch(lang):
        raise UsageError(f"'{lang}' is not a language code (examples: fr, ja, pt-BR)")
    if name is not None and (not name.strip() or any(unicodedata.category(ch)[0] == "C" for ch in name)):
        raise UsageError("--name must be one line of text, without control characters")
    chosen = kind or (kinds[0] if kinds else None)
    if kinds and chosen not in kinds:
        raise UsageError(f"unknown kind '{chosen}' for {game_title(info.game)} cards; choose one of {', '.join(kinds)}")
    found = existing_card(catalog, info, number, folder)
    if found is not None:
        raise CardlabError(f"{found}: card {info.code}-{number} already exists; edit that file instead")
    path = card_path(info, number, name, slug, folder)
    text = skeleton(
        info.game,
        chosen,
        card_id=f"{info.code}-{number}",
        number=number,
        source=info.source_language,
        name=name,
        lang=lang or info.source_language,
        path=path,
        default_kind=kind is None and bool(kinds),
    )
    make_folder(folder)
    write_new(path, text)
    return path
