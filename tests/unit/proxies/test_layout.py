"""cardlab.proxies.layout at its corners (issue 16), value by value: Letter with 3 mm bleed, two
cards across with a margin smaller than the bleed, one card per page, crop marks relative to the
cut and the page edge, the limits of the card size, the bleed and the paper names."""

from __future__ import annotations

import pytest

from cardlab.core.errors import UsageError
from cardlab.proxies import layout as px

PT = 72 / 25.4


def _rect(r: px.Rect) -> tuple[float, float, float, float]:
    return (round(r.x, 4), round(r.y, 4), round(r.w, 4), round(r.h, 4))


def _marks(marks) -> list:
    return [((round(a, 4), round(b, 4)), (round(c, 4), round(d, 4))) for (a, b), (c, d) in marks]


# -- Letter with 3 mm bleed -----------------------------------------------------------------------


def test_letter_with_3mm_bleed_exact_geometry():
    """Across: full 6 mm gutters and 3 mm outer bleed; down: 279.4 - 6 - 264 - 6 = 3.4 mm for two
    gutters (1.7 mm, 0.85 mm bleed on inner edges), outer edges keep 3 mm."""
    lay = px.compute_layout("letter", bleed_mm=3)
    assert (lay.cols, lay.rows, lay.per_page) == (3, 3, 9)
    assert lay.gutter_mm == pytest.approx((6, 1.7))
    assert [_rect(c) for c in lay.cards[:4]] == [
        (7.45, 185.4, 63.0, 88.0),
        (76.45, 185.4, 63.0, 88.0),
        (145.45, 185.4, 63.0, 88.0),
        (7.45, 95.7, 63.0, 88.0),
    ]
    assert _rect(lay.cards[-1]) == (145.45, 6.0, 63.0, 88.0)
    assert [_rect(b) for b in lay.bleeds[:4]] == [
        (4.45, 184.55, 69.0, 91.85),  # 3 mm outer on top and left, 0.85 mm below
        (73.45, 184.55, 69.0, 91.85),
        (142.45, 184.55, 69.0, 91.85),
        (4.45, 94.85, 69.0, 89.7),  # middle row: 0.85 mm above and below
    ]
    assert _rect(lay.bleeds[-1]) == (142.45, 3.0, 69.0, 91.85)  # 3 mm outer bleed reaches the 3 mm margin
    assert lay.notes == [
        "3 mm bleed does not fully fit letter paper down: neighbouring cards share a 1.7 mm gutter "
        "(0.85 mm bleed on inner edges, 3.0 mm on outer edges)"
    ]


def test_letter_with_3mm_bleed_crop_marks():
    """Marks start 1 mm beyond the outer bleed and run 5 mm, cut short at the page edge (2 mm above
    and below on Letter); one mark per cut line on each side."""
    lay = px.compute_layout("letter", bleed_mm=3)
    assert _marks(lay.marks[:4]) == [
        ((7.45, 277.4), (7.45, 279.4)),  # above: from the bleed's top (276.4) + 1, clipped to the page
        ((7.45, 2.0), (7.45, 0.0)),  # below: from the bleed's bottom (3.0) - 1, clipped at 0
        ((70.45, 277.4), (70.45, 279.4)),
        ((70.45, 2.0), (70.45, 0.0)),
    ]
    assert _marks(lay.marks[12:16]) == [
        ((3.45, 6.0), (0.0, 6.0)),  # left of the bleed (4.45) - 1, clipped at 0
        ((212.45, 6.0), (215.9, 6.0)),  # right of the bleed (211.45) + 1, clipped to 215.9
        ((3.45, 94.0), (0.0, 94.0)),
        ((212.45, 94.0), (215.9, 94.0)),
    ]
    assert len(lay.marks) == 24  # 6 vertical cut lines x 2 + 6 horizontal x 2


# -- two cards across, margin smaller than the bleed -------------------------------------------


def test_two_across_with_a_margin_smaller_than_the_bleed():
    """100 mm cards on A4: 204 mm of room leave 2 mm each side for a 3 mm bleed, so the outer bleed
    is 2 mm and the two columns share no gutter; down there is room for the full bleed."""
    lay = px.compute_layout("a4", card_mm=(100, 130), bleed_mm=3)
    assert (lay.cols, lay.rows) == (2, 2)
    assert lay.gutter_mm == pytest.approx((0, 6))
    assert [_rect(c) for c in lay.cards] == [
        (5.0, 151.5, 100, 130),
        (105.0, 151.5, 100, 130),
        (5.0, 15.5, 100, 130),
        (105.0, 15.5, 100, 130),
    ]
    assert [_rect(b) for b in lay.bleeds] == [
        (3.0, 148.5, 102.0, 136.0),
        (105.0, 148.5, 102.0, 136.0),
        (3.0, 12.5, 102.0, 136.0),
        (105.0, 12.5, 102.0, 136.0),
    ]
    assert lay.notes == [
        "100 x 130 mm cards: 4 per page (2 across, 2 down) fit on a4 paper, not 9",
        "3 mm bleed does not fully fit a4 paper across: neighbouring cards share a 0.0 mm gutter "
        "(0.00 mm bleed on inner edges, 2.0 mm on outer edges)",
    ]
    assert _marks(lay.marks[:2]) == [((5.0, 285.5), (5.0, 290.5)), ((5.0, 11.5), (5.0, 6.5))]
    assert _marks(lay.marks[6:8]) == [((2.0, 15.5), (0.0, 15.5)), ((208.0, 15.5), (210.0, 15.5))]


def test_two_across_with_room_for_the_full_bleed():
    """88 mm cards on A4 with 3 mm bleed: full 6 mm gutters both ways, no bleed note."""
    lay = px.compute_layout("a4", card_mm=(88, 125), bleed_mm=3)
    assert (lay.cols, lay.rows, lay.gutter_mm) == (2, 2, (6, 6))
    assert _rect(lay.cards[0]) == (14.0, 151.5, 88, 125)
    assert _rect(lay.bleeds[0]) == (11.0, 148.5, 94.0, 131.0)
    assert _rect(lay.cards[3]) == (108.0, 20.5, 88, 125)
    assert lay.notes == ["88 x 125 mm cards: 4 per page (2 across, 2 down) fit on a4 paper, not 9"]


def test_two_across_when_the_gutter_is_partly_there():
    """101 x 140 mm on A4 with 3 mm bleed: across 1 mm outer bleed and no gutter; down
    291 - 280 = 11 mm: 3 mm outer each side and a 5 mm gutter."""
    lay = px.compute_layout("a4", card_mm=(101, 140), bleed_mm=3)
    assert lay.gutter_mm == pytest.approx((0, 5))
    assert _rect(lay.cards[0]) == (4.0, 151.0, 101, 140)
    assert _rect(lay.bleeds[0]) == (3.0, 148.5, 102.0, 145.5)
    assert lay.notes[1:] == [
        "3 mm bleed does not fully fit a4 paper across: neighbouring cards share a 0.0 mm gutter "
        "(0.00 mm bleed on inner edges, 1.0 mm on outer edges)",
        "3 mm bleed does not fully fit a4 paper down: neighbouring cards share a 5.0 mm gutter "
        "(2.50 mm bleed on inner edges, 3.0 mm on outer edges)",
    ]


def test_cards_filling_the_room_exactly_leave_no_bleed_across():
    """Two 102 mm cards fill A4's 204 mm of room: no outer bleed and no gutter across, however
    small the bleed asked; down there is room for it."""
    lay = px.compute_layout("a4", card_mm=(102, 140), bleed_mm=1)
    assert lay.gutter_mm == pytest.approx((0, 2))
    assert [_rect(b) for b in lay.bleeds[:2]] == [(3.0, 148.5, 102.0, 142.0), (105.0, 148.5, 102.0, 142.0)]
    assert lay.notes[1:] == [
        "1 mm bleed does not fully fit a4 paper across: neighbouring cards share a 0.0 mm gutter "
        "(0.00 mm bleed on inner edges, 0.0 mm on outer edges)"
    ]


def test_cards_filling_the_room_exactly():
    """Three 68 mm cards fill A4's 204 mm of room exactly: three across, touching, at the margin."""
    lay = px.compute_layout("a4", card_mm=(68, 88))
    assert (lay.cols, lay.rows) == (3, 3)
    assert [_rect(c)[0] for c in lay.cards[:3]] == [3.0, 71.0, 139.0]
    assert lay.notes == []
    assert px.compute_layout("a4", card_mm=(68.1, 88)).cols == 2


@pytest.mark.parametrize(
    ("paper", "height", "rows", "bottom"),
    [("a4", 58.2, 5, 3.0), ("a4", 29.1, 10, 3.0), ("letter", 54.68, 5, 3.0), ("letter", 27.34, 10, 3.0), ("a4", 58.21, 4, 32.08)],
)
def test_cards_filling_the_height_exactly_in_decimal(paper, height, rows, bottom):
    """Five 58.2 mm cards fill A4's 291 mm of room (291 // 58.2 is 4.0 in binary floating point),
    the bottom row at the 3 mm margin; a hundredth of a millimetre more and only four fit."""
    lay = px.compute_layout(paper, card_mm=(63, height))
    assert lay.rows == rows
    assert lay.cards[-1].y == pytest.approx(bottom)


def test_one_card_with_a_margin_smaller_than_the_bleed():
    """One 200 mm card across A4: 2 mm of outer bleed instead of 3, said; with 2 mm asked, it fits."""
    lay = px.compute_layout("a4", card_mm=(200, 200), bleed_mm=3)
    assert _rect(lay.bleeds[0]) == (3.0, 45.5, 204.0, 206)
    assert lay.notes[1:] == [
        "3 mm bleed does not fully fit a4 paper across: neighbouring cards share a 0.0 mm gutter "
        "(0.00 mm bleed on inner edges, 2.0 mm on outer edges)"
    ]
    assert px.compute_layout("a4", card_mm=(200, 200), bleed_mm=2).notes == [
        "200 x 200 mm cards: 1 per page (1 across, 1 down) fit on a4 paper, not 9"
    ]


def test_default_layout_is_a4_without_bleed():
    """No argument: A4, 63 x 88 mm cards, no bleed, crop marks, as many as fit."""
    lay = px.compute_layout()
    assert (lay.paper, lay.page_mm, lay.card_mm, lay.bleed_mm, lay.cols, lay.rows) == ("a4", (210.0, 297.0), (63.0, 88.0), 0.0, 3, 3)
    assert len(lay.marks) == 16


def test_no_grid_means_up_to_ten_thousand_a_side():
    """Without a grid the count per side is capped at 10,000 (cards a fiftieth of a millimetre wide)."""
    assert px.compute_layout("a4", card_mm=(0.02, 290), cut_marks=False).cols == 10_000
    assert px.compute_layout("a4", card_mm=(200, 0.02), cut_marks=False).rows == 10_000


def test_one_card_per_page_at_the_margins():
    """A 204 x 291 mm card fills A4 up to the 3 mm margins; its marks are clipped to the page."""
    lay = px.compute_layout("a4", card_mm=(204, 291))
    assert (lay.cols, lay.rows, lay.gutter_mm) == (1, 1, (0, 0))
    assert _rect(lay.cards[0]) == (3.0, 3.0, 204, 291)
    assert _marks(lay.marks) == [
        ((3.0, 295.0), (3.0, 297.0)),
        ((3.0, 2.0), (3.0, 0.0)),
        ((207.0, 295.0), (207.0, 297.0)),
        ((207.0, 2.0), (207.0, 0.0)),
        ((2.0, 3.0), (0.0, 3.0)),
        ((208.0, 3.0), (210.0, 3.0)),
        ((2.0, 294.0), (0.0, 294.0)),
        ((208.0, 294.0), (210.0, 294.0)),
    ]
    assert lay.notes == ["204 x 291 mm cards: 1 per page (1 across, 1 down) fit on a4 paper, not 9"]
    with pytest.raises(UsageError) as err:
        px.compute_layout("a4", card_mm=(204.1, 291))
    assert str(err.value) == "a 204.1 x 291 mm card does not fit on a4 paper"
    with pytest.raises(UsageError) as err:
        px.compute_layout(" A4 ", card_mm=(63, 291.1))
    assert str(err.value) == "a 63 x 291.1 mm card does not fit on a4 paper"


def test_one_card_with_full_bleed_has_no_bleed_note():
    """One card across and down with room for the full bleed: nothing had to give, no bleed note."""
    lay = px.compute_layout("a4", card_mm=(150, 200), bleed_mm=3)
    assert _rect(lay.cards[0]) == (30.0, 48.5, 150, 200)
    assert _rect(lay.bleeds[0]) == (27.0, 45.5, 156, 206)
    assert lay.notes == ["150 x 200 mm cards: 1 per page (1 across, 1 down) fit on a4 paper, not 9"]
    assert px.compute_layout("letter", bleed_mm=3, grid=(1, 1)).notes == []


# -- grid and notes -----------------------------------------------------------------------------


def test_grid_limits_the_cards_and_sets_the_usual_count():
    """``grid`` caps columns and rows; the "per page" note compares with the grid asked."""
    lay = px.compute_layout("a4", grid=(2, 2))
    assert (lay.cols, lay.rows) == (2, 2)
    assert [_rect(c) for c in lay.cards] == [
        (42.0, 148.5, 63.0, 88.0),
        (105.0, 148.5, 63.0, 88.0),
        (42.0, 60.5, 63.0, 88.0),
        (105.0, 60.5, 63.0, 88.0),
    ]
    assert lay.notes == []
    lay = px.compute_layout("a4", card_mm=(88, 125), grid=(3, 1))
    assert (lay.cols, lay.rows) == (2, 1)
    assert lay.notes == ["88 x 125 mm cards: 2 per page (2 across, 1 down) fit on a4 paper, not 3"]


def test_small_cards_fill_the_page_without_a_grid():
    """Without a grid, as many as fit: 20 mm cards on A4 are 10 across and 14 down."""
    lay = px.compute_layout("a4", card_mm=(20, 20))
    assert (lay.cols, lay.rows, lay.per_page) == (10, 14, 140)
    assert lay.notes == []


def test_half_millimetre_bleed_fits_fully():
    """0.5 mm bleed on A4: 1 mm gutters, 0.5 mm outer bleed, marks 1 mm beyond it."""
    lay = px.compute_layout("a4", bleed_mm=0.5)
    assert lay.gutter_mm == (1.0, 1.0)
    assert _rect(lay.cards[0]) == (9.5, 193.5, 63, 88)
    assert _rect(lay.bleeds[0]) == (9.0, 193.0, 64.0, 89.0)
    assert _rect(lay.bleeds[-1]) == (137.0, 15.0, 64.0, 89.0)
    assert _marks(lay.marks[:2]) == [((9.5, 283.0), (9.5, 288.0)), ((9.5, 14.0), (9.5, 9.0))]
    assert lay.notes == []


# -- marks for a last page ----------------------------------------------------------------------


def test_marks_for_a_partial_page():
    """Marks only at the cut lines of the cards a page holds; none for no card."""
    lay = px.compute_layout("a4")
    assert lay.marks_for(0) == []
    assert lay.marks_for(-1) == []
    assert lay.marks_for(9) == lay.marks
    assert lay.marks_for(12) == lay.marks
    assert len(lay.marks) == 16
    assert _marks(lay.marks_for(1)) == [
        ((10.5, 281.5), (10.5, 286.5)),
        ((10.5, 191.5), (10.5, 186.5)),
        ((73.5, 281.5), (73.5, 286.5)),
        ((73.5, 191.5), (73.5, 186.5)),
        ((9.5, 192.5), (4.5, 192.5)),
        ((74.5, 192.5), (79.5, 192.5)),
        ((9.5, 280.5), (4.5, 280.5)),
        ((74.5, 280.5), (79.5, 280.5)),
    ]
    assert len(lay.marks_for(3)) == 12
    assert len(lay.marks_for(4)) == 14
    assert px.compute_layout("a4", cut_marks=False).marks_for(5) == []


# -- rectangles and points ----------------------------------------------------------------------


def test_rect_points_and_page_points():
    """Millimetres times 72 / 25.4."""
    assert px.Rect(1, 2, 25.4, 50.8).pt == pytest.approx((PT, 2 * PT, 72, 144))
    assert px.compute_layout("letter").page_pt == pytest.approx((612, 792))


@pytest.mark.parametrize(
    ("other", "expected"),
    [
        (px.Rect(10, 0, 10, 10), False),  # touching on the right edge
        (px.Rect(-10, 0, 10, 10), False),  # touching on the left edge
        (px.Rect(0, 10, 10, 10), False),  # touching above
        (px.Rect(0, -10, 10, 10), False),  # touching below
        (px.Rect(9.9, 9.9, 10, 10), True),
        (px.Rect(-9.9, -9.9, 10, 10), True),
        (px.Rect(2, 2, 1, 1), True),  # inside
        (px.Rect(20, 20, 1, 1), False),
    ],
)
def test_rect_overlaps_only_on_shared_area(other, expected):
    """Rectangles that only touch do not overlap."""
    assert px.Rect(0, 0, 10, 10).overlaps(other) is expected
    assert other.overlaps(px.Rect(0, 0, 10, 10)) is expected


# -- limits of the inputs -----------------------------------------------------------------------


def test_bleed_limits():
    """0 and 3 mm accepted; -1 and 3.01 refused, with the range in the message."""
    assert px.compute_layout("a4", bleed_mm=0).gutter_mm == (0.0, 0.0)
    assert px.compute_layout("a4", bleed_mm=3).bleed_mm == 3
    with pytest.raises(UsageError) as err:
        px.compute_layout("a4", bleed_mm=-1)
    assert str(err.value) == "bleed -1 mm is out of range: choose 0 to 3 mm"
    with pytest.raises(UsageError) as err:
        px.compute_layout("a4", bleed_mm=3.01)
    assert str(err.value) == "bleed 3.01 mm is out of range: choose 0 to 3 mm"


def test_paper_names():
    """Known papers in any case and spacing; an unknown one names the choices."""
    assert px.paper_size(" Letter ") == (215.9, 279.4)
    assert px.paper_size("A4") == (210.0, 297.0)
    assert px.compute_layout("LETTER").paper == "letter"
    with pytest.raises(UsageError) as err:
        px.paper_size("a5")
    assert str(err.value) == "unknown paper size 'a5'; choose one of: a4, letter"


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("20x20", (20.0, 20.0)),
        ("200x200", (200.0, 200.0)),
        ("63,5x88", (63.5, 88.0)),
        ("63X88", (63.0, 88.0)),
        ("63*88", (63.0, 88.0)),
        (" 63 x 88 mm ", (63.0, 88.0)),
    ],
)
def test_card_size_accepted(text, size):
    """Both limits are accepted; comma decimals, ``X`` and ``*`` too."""
    assert px.parse_card_size(text) == size


@pytest.mark.parametrize("text", ["19.9x88", "63x19.9", "200.1x88", "63x200.1"])
def test_card_size_one_step_over_the_limits(text):
    """Just below 20 or above 200 mm on either side is refused, with the limits said."""
    with pytest.raises(UsageError) as err:
        px.parse_card_size(text)
    assert str(err.value) == f"card size '{text}': each side must be 20 to 200 mm"


def test_card_size_not_two_numbers():
    """Not WIDTHxHEIGHT: the message shows the expected form."""
    with pytest.raises(UsageError) as err:
        px.parse_card_size("63 by 88")
    assert str(err.value) == "card size '63 by 88' is not WIDTHxHEIGHT in mm, e.g. 63x88"


@pytest.mark.parametrize(
    ("env", "paper"),
    [
        ({"LC_ALL": "", "LC_PAPER": "en_US.UTF-8", "LANG": "fr_FR"}, "letter"),  # empty is skipped
        ({"LC_ALL": "", "LC_PAPER": "", "LANG": "es_CO"}, "letter"),
        ({"LANG": "en_us.UTF-8"}, "letter"),  # territory in any case
        ({"LANG": "en_PH"}, "letter"),
        ({"LANG": "en_VE"}, "letter"),
        ({"LANG": "fr_FR"}, "a4"),
        ({"LANG": "POSIX"}, "a4"),
        ({"LANG": "_US"}, "a4"),  # no language before the territory
        ({"LANG": "en_U"}, "a4"),
        ({"LC_ALL": "de_DE", "LANG": "en_US"}, "a4"),
    ],
)
def test_default_paper_precedence_and_territories(env, paper):
    """The first non-empty of LC_ALL, LC_PAPER, LANG decides by its territory."""
    assert px.default_paper(env) == paper


def test_default_paper_reads_the_environment(monkeypatch):
    """Without a mapping, the process environment is read."""
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_PAPER", raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert px.default_paper() == "letter"
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert px.default_paper() == "a4"


def test_letter_territories():
    """The locale territories whose paper is Letter."""
    assert sorted(px.LETTER_TERRITORIES) == ["CA", "CL", "CO", "CR", "DO", "GT", "MX", "NI", "PA", "PH", "PR", "SV", "US", "VE"]
