"""Card faces and seat chips as Rich text: how every widget draws a card or a player.

A good shows its category in letters (``HSE``, or the full name when there is room) on its
category colour, and its value; money shows ``$$$``. Nothing here depends on colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len, chop_cells
from rich.style import Style
from rich.text import Text

from ...describe import card_category, card_code, card_value_label, seat_tags
from ...engine import CATEGORIES
from ...i18n import language, pgettext
from ..theme import CARD_COLORS, GOLD, MUTED, no_color, seat_color, seat_ink

GOLD_BOLD = Style(bold=True, color=GOLD)
"""Gold words: a key in the help, a status in the round bar, a notice."""
CHIP = Style(bold=True, color="#1a1a1a", bgcolor=GOLD)
"""Dark words on gold: the brand, a banner's head (``Column B``, ``Round 2 is over``)."""


def styled(text: str, style: Style) -> Text:
    """``text`` in ``style`` as a span, not as the base style: text appended later keeps its own."""
    return Text.assemble((text, style))


def card_style(card: str, *, dim: bool = False, bold: bool = False) -> Style:
    bg, fg = CARD_COLORS[card_category(card)]
    return Style(bgcolor=bg, color=fg, bold=bold, dim=dim)


def good_name(category: str) -> str:
    """A category's name in the language spoken now (the rules' words: maison, voiture...)."""
    return _good_names()[0].get(category, category)


def full_names() -> int:
    """The cells a card's full name needs: cards show their category's full name only where the
    longest one fits, in the language spoken now (``holiday 700``, ``vacances 700``)."""
    return _good_names()[1]


_GOOD_NAMES: dict[str, tuple[dict[str, str], int]] = {}
"""Per language: each category's name, and the cells a card's full name needs."""


def _good_names() -> tuple[dict[str, str], int]:
    """The goods' names in the language spoken now, looked up once per language: every card drawn
    asks for its name and the longest one (a board is some fifty cards, drawn at each key)."""
    code = language()
    known = _GOOD_NAMES.get(code)
    if known is None:
        names = {
            "house": pgettext("good", "house"), "car": pgettext("good", "car"), "boat": pgettext("good", "boat"),
            "horse": pgettext("good", "horse"), "jewel": pgettext("good", "jewel"), "watch": pgettext("good", "watch"),
            "holiday": pgettext("good", "holiday"), "money": pgettext("good", "money"),
        }  # fmt: skip
        longest = max(cell_len(names[category]) for category in (*CATEGORIES, "money")) + len(" 700")
        known = _GOOD_NAMES[code] = (names, longest)
    return known


def card_label(card: str, width: int) -> str:
    """The card's words in ``width`` cells: ``"holiday 700"`` when every card's name fits (so a
    column never mixes the two forms), else ``"HOL 700"``, ``"HOL700"``, or ``"HOL7"`` when very
    tight."""
    name = good_name(card_category(card))
    value = card_value_label(card)
    code = card_code(card)
    for text in (
        f"{name} {value}" if width >= full_names() else "",
        f"{code} {value}",
        f"{code}{value}",
        f"{code}{value[0]}",
    ):
        if text and len(text) <= width:
            return text
    return card_code(card)[:width]


def card_face(card: str, width: int, *, bold: bool = False, pad: bool = True) -> Text:
    """A one-line card, ``width`` cells wide, label left-aligned on the category colour
    (after one space when ``pad``)."""
    lead = " " if pad else ""
    label = card_label(card, max(1, width - len(lead)))
    return styled(f"{lead}{label}".ljust(width)[:width], card_style(card, bold=bold))


def card_tile(card: str, width: int, rows: int, tag: Text | None = None) -> list[Text]:
    """A card ``rows`` lines tall, ending in a half-line edge (``▀``) so stacked cards stay apart
    even when two of one colour touch. Two lines: ``holiday 700`` and the edge; three: name, value
    at the right, edge. ``tag`` (who would take it) hangs at the right of the edge."""
    if rows <= 1:
        return [card_face(card, width)]
    style = card_style(card)
    bg = CARD_COLORS[card_category(card)][0]
    lines: list[Text] = []
    if rows == 2:
        lines.append(card_face(card, width))
    else:
        name = good_name(card_category(card))
        top = name if cell_len(name) <= width - 1 else card_code(card)
        lines.append(styled(f" {top}".ljust(width)[:width], style + Style(bold=True)))
        for _ in range(rows - 3):
            lines.append(styled(" " * width, style))
        lines.append(styled(f"{card_value_label(card)} ".rjust(width)[:width], style))
    edge = styled("▀" * width, Style(color=bg))
    if tag is not None:
        if tag.cell_len > width - 2:
            tag = tag.copy()
            tag.truncate(max(1, width - 2))
        edge = edge[: width - tag.cell_len]
        edge.append_text(tag)
    lines.append(edge)
    return lines


def card_chip(card: str) -> Text:
    """An inline card for sentences and holdings: ``HSE 700`` on its colour."""
    return styled(f" {card_code(card)} {card_value_label(card)} ", card_style(card))


def seat_name(name: str, color: str, *, bold: bool = True) -> Text:
    return styled(name, Style(color=seat_color(color), bold=bold))


def seat_emphasis(color: str) -> Style:
    """Whose turn it is, or what is chosen: the seat's colour in bold; reversed where colours are
    turned off (``NO_COLOR``), since a grey level alone does not stand out."""
    if no_color():
        return Style(bold=True, reverse=True)
    return Style(color=seat_color(color), bold=True)


ELLIPSIS = "…"


def head_cells(text: str, width: int) -> str:
    """The longest start of ``text`` in at most ``width`` terminal cells (a wide character, CJK or
    emoji, takes two)."""
    return chop_cells(text, width)[0] if text and width > 0 else ""


def tail_cells(text: str, width: int) -> str:
    """The longest end of ``text`` in at most ``width`` cells."""
    for start in range(len(text) + 1):
        if cell_len(text[start:]) <= width:
            return text[start:]
    return ""


def clip(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, ending in ``…`` when something was cut."""
    if cell_len(text) <= width:
        return text
    return head_cells(text, width - 1) + ELLIPSIS if width > 0 else ""


def pad(text: str, width: int) -> str:
    """``text`` filled with spaces to ``width`` cells (it is assumed to fit)."""
    return text + " " * max(0, width - cell_len(text))


def fit_names(names: Sequence[str], width: int) -> list[str]:
    """Every name in at most ``width`` cells, still telling the players apart: a long name ends in
    ``…``; when two would then read the same, each keeps its distinguishing end
    (``Alex…Smith``, ``Alex…Smyth`` in ten cells), and failing that its seat number
    (``Alexandr…2``)."""
    fitted = [clip(name, width) for name in names]
    for i in range(len(names)):
        if fitted.count(fitted[i]) == 1:
            continue
        clash = [j for j, f in enumerate(fitted) if f == fitted[i]]
        for tail_width in _tail_widths(names, clash, width):
            trial = {j: _ends(names[j], width, tail_width) for j in clash}
            if len(set(trial.values())) == len(clash) and not set(trial.values()) & {
                fitted[j] for j in range(len(names)) if j not in clash
            }:
                break
        else:
            trial = {j: _ends(names[j], width, -1, tag=str(j + 1)) for j in clash}
        for j, text in trial.items():
            fitted[j] = text
    return fitted


def _tail_widths(names: Sequence[str], clash: list[int], width: int) -> list[int]:
    """How many cells of each clashing name's end to try keeping: its last word first (it reads
    best), then from one cell up."""
    last_words = {cell_len(names[j].split()[-1]) for j in clash if len(names[j].split()) > 1}
    widths = sorted(w for w in last_words if w <= width - 2)
    return widths + [w for w in range(1, width - 1) if w not in widths]


def _ends(name: str, width: int, tail_width: int, *, tag: str = "") -> str:
    """The start of ``name``, ``…``, then its last ``tail_width`` cells (or ``tag``)."""
    if cell_len(name) <= width:
        return name
    tail = tag or tail_cells(name, tail_width)
    return head_cells(name, width - 1 - cell_len(tail)) + ELLIPSIS + tail


def cell_tags(names: Sequence[str], width: int = 3) -> list[str]:
    """A short tag per seat for cramped places (the board, the chart), at most ``width`` cells and
    all different: :func:`~dvtui.describe.seat_tags` measured in cells, so ``李小龍`` is ``李…``
    (two cells and the ``…``), not three wide characters. In three cells or more a name cut short
    ends in ``…`` as everywhere (``Ro…`` for Root); two cells are too few for it (``Ro``)."""
    tags = [head_cells(tag, width) for tag in seat_tags(names)]
    if width >= 3:
        tags = [
            clip(name.strip(), width) if tag != name.strip() and name.strip().startswith(tag) else tag
            for name, tag in zip(names, tags, strict=True)
        ]
    return [
        f"{head_cells(names[i].strip() or 'P', width - len(str(i + 1)))}{i + 1}"
        if tags.count(tag) > 1 or not tag.strip()
        else tag
        for i, tag in enumerate(tags)
    ]


def seat_chip(text: str, color: str, *, dim: bool = False) -> Text:
    """Text on the seat's colour: a number card, a tag."""
    return styled(text, Style(bgcolor=seat_color(color), color=seat_ink(color), bold=True, dim=dim))


def muted(text: str) -> Text:
    return styled(text, Style(color=MUTED))
