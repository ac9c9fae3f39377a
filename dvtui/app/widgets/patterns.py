"""A fill of its own for each seat's bars in the charts that compare players.

Colour alone does not tell bars apart: without colours (``NO_COLOR``) or on a terminal of 16 colours
or one, every seat's bars were the same block. So each seat fills its bars with a glyph of its own
(block elements, real text every terminal font draws), which the chart's legend pairs with the
seat's name; colour terminals keep the colour on top. A bar's partly filled top cell stays one of
the eighth blocks, the same for every seat: the pattern shows in its whole cells.
"""

from __future__ import annotations

PATTERNS = ("█", "▒", "▌", "░", "▚")
"""Seat 1's fill, seat 2's, …: a full block, medium shade, a left half (a thin bar, stripes when
wider), light shade and a checker; neighbours in a group of bars differ in shade and in shape."""


def seat_pattern(seat: int) -> str:
    """The fill of seat ``seat``'s bars (0-based)."""
    return PATTERNS[seat % len(PATTERNS)]


def legend_key(seat: int) -> str:
    """The seat's fill as a legend shows it before the name: two cells, so a pattern reads as one."""
    return seat_pattern(seat) * 2
