"""Cockatrice card elements are counted in their zone or reported at their line, never dropped nor
counted in the main deck by mistake (a card outside any zone, in a nested or unknown zone)."""

from __future__ import annotations

from pathlib import Path

from cardlab.decks.parse_cod import parse_cod

ZONES = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>zones</deckname>
    <card number="4" name="Gust of Wind"/>
    <zone name="main">
        <card number="4" name="Bill"/>
        <zone name="side">
            <card number="4" name="Pikachu"/>
        </zone>
    </zone>
    <zone name="maybeboard">
        <card number="4" name="Professor Oak"/>
    </zone>
    <zone name="side">
        <card number="2" name="Scyther"/>
    </zone>
    <zone name="tokens">
        <card number="1" name="Token"/>
    </zone>
    <zone name="main">
        <comments><card number="3" name="Potion"/></comments>
    </zone>
</cockatrice_deck>
"""


def test_every_card_counted_in_its_zone_or_reported():
    deck = parse_cod(ZONES, Path("zones.cod"))
    assert [(e.line, e.count, e.text, e.header) for e in deck.entries] == [(6, 4, "Bill", None), (15, 2, "Scyther", 0)]
    assert [(h.line, h.outside) for h in deck.headers] == [(14, True)]
    assert [(p.pos.line, p.rule, p.message) for p in deck.problems] == [
        (4, "unknown-section", '<card name="Gust of Wind"> is outside any zone; not counted (put it in <zone name="main">)'),
        (7, "unknown-section", 'a <zone name="side"> inside the zone "main"; zones are not nested: its cards are not counted'),
        (
            8,
            "unknown-section",
            '<card name="Pikachu"> is in a zone inside another zone; not counted (a deck\'s zones hold its cards directly)',
        ),
        (
            12,
            "unknown-section",
            '<card name="Professor Oak"> is in the zone "maybeboard", which is not part of the deck (zones: main, side); not counted',
        ),
        (21, "unknown-section", '<card name="Potion"> is inside <comments>, not directly in its zone; not counted'),
    ]


def test_zone_without_name_is_main():
    text = '<cockatrice_deck version="1"><zone>\n<card number="4" name="Bill"/></zone></cockatrice_deck>\n'
    deck = parse_cod(text, Path("d.cod"))
    assert [(e.line, e.count, e.text) for e in deck.entries] == [(2, 4, "Bill")]
    assert deck.problems == []
