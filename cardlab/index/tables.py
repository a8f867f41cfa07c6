"""SQLModel tables of the search index (imported only when the index is built).

Searching reads the same tables with plain ``sqlite3`` (importing sqlmodel costs ~0.6 s), so the
column names here are the contract used by :mod:`cardlab.search.compile`, :mod:`cardlab.search.hits` and :mod:`cardlab.search.lookup`.
The full-text tables (FTS5) are virtual tables, created in :mod:`cardlab.index.sqlite` with SQL.
"""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class Card(SQLModel, table=True):
    """One card: identity, what a search table shows, and the whole card as JSON."""

    __tablename__ = "card"
    rowid: int | None = Field(
        default=None, primary_key=True, description="the card's number in the index: the full-text and facet tables refer to it"
    )
    id: str = Field(unique=True, description="<set code>-<collector number>")
    game: str = Field(description="not indexed: a game matches most of a catalog, and card_set lists the games")
    set_code: str = Field(index=True)
    number: str = Field(description="collector number as printed")
    number_int: int | None = Field(default=None, description="numeric part of the collector number")
    pos: int = Field(
        description="the card's place in catalog order (as the catalog in memory lists it); rows are in search order"
        " (cardlab.index.sqlite.search_order)"
    )
    name: str = Field(description="name in the set's source language")
    type_line: str = Field(description="the type line `show` prints")
    stats: str = Field(description="the key stats `search` prints")
    rarity: str | None = None
    rarity_rank: int | None = Field(default=None, description="place of the rarity in its set's rarities list, commonest first")
    illustrator: str | None = None
    data: bytes = Field(
        description="the card as JSON, as in its YAML file (a reprint merged with its original), compressed: see cardlab.index.sqlite.data_decoder"
    )
    path: str = Field(description="the card's file name, in the folder of its set's set.yaml (card_set.path)")
    oracle_id: str = Field(index=True, description="the id of the original card: its own id, or what a reprint reprints")
    reprint_of: str | None = Field(default=None, description="for a reprint, the card it reprints")


class CardName(SQLModel, table=True):
    """Every name of every card, one row per language; ``folded`` (:func:`cardlab.core.text.fold`)
    and ``compact`` (:func:`cardlab.core.text.compact`: no spaces or punctuation) for matching."""

    __tablename__ = "card_name"
    rowid: int | None = Field(default=None, primary_key=True)
    card_id: str = Field(index=True)
    lang: str
    name: str
    folded: str = Field(index=True)
    compact: str = Field(index=True)


class FacetText(SQLModel, table=True):
    """One searchable text value of a card: ``field`` as in the query language, folded ``text``;
    the table is its own index (field, text, card): no row id, no second copy."""

    __tablename__ = "facet_text"
    __table_args__ = {"sqlite_with_rowid": False}
    field: str = Field(primary_key=True)
    text: str = Field(primary_key=True)
    card: int = Field(primary_key=True, description="card.rowid")


class FacetNum(SQLModel, table=True):
    """One searchable number of a card (hp, cost, damage...), stored as :class:`FacetText` is."""

    __tablename__ = "facet_num"
    __table_args__ = {"sqlite_with_rowid": False}
    field: str = Field(primary_key=True)
    num: float = Field(primary_key=True)
    card: int = Field(primary_key=True, description="card.rowid")


class SetKey(SQLModel, table=True):
    """Every way to name a set in a query (``set:``) or a card reference: its code and aliases,
    folded as facet values (:func:`cardlab.core.text.norm_value`)."""

    __tablename__ = "set_key"
    __table_args__ = {"sqlite_with_rowid": False}
    key: str = Field(primary_key=True)
    code: str = Field(primary_key=True)


class CardSet(SQLModel, table=True):
    """One set: code, game, names (JSON localized map), printed total, aliases (JSON list), its
    cards counted."""

    __tablename__ = "card_set"
    code: str = Field(primary_key=True)
    game: str
    name: str
    source_language: str
    printed_total: int | None = None
    release_date: str | None = None
    aliases: str = "[]"
    data: str
    path: str = Field(default="", description="the set.yaml file")
    cards: int = Field(default=0, description="how many of the set's cards the index holds (cardlab sets)")


class PrintedName(SQLModel, table=True):
    """A print variant's spelling of a card's name (``printed_name``), one row per language, folded
    as :class:`CardName`: deck lines written with it still match the card (not searched)."""

    __tablename__ = "printed_name"
    rowid: int | None = Field(default=None, primary_key=True)
    card_id: str
    folded: str = Field(index=True)
    compact: str = Field(index=True)


class Meta(SQLModel, table=True):
    """Key/value facts about the index: the catalog fingerprint it was built from, its version."""

    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str
