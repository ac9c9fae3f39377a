"""The seven columns of the table, drawn from any game state ("state in, widgets out").

:meth:`Board.show` takes a :class:`~dvtui.engine.Game` and a few display choices (the column
chosen, the column a resolution is showing, results so far) and nothing else, so the live table,
the resolution and the replay viewer all draw through it. What a column would award is the
engine's :meth:`~dvtui.engine.Game.projected`, never worked out here.

Each column, top to bottom: its letter, its cards (the bottom card, the next one taken, nearest the
players), one row per player with the number cards placed there this round and their total, and an
outcome row (an exchange's returned good, a rotation). In a projection, the card each player would
take carries that player's tag.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, Self

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.events import Click, Leave, MouseMove
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...describe import card_code, card_value_label, column_label
from ...engine import COLUMN_HEIGHT, COLUMNS, ColumnResolved, Game, Phase
from ...i18n import _
from ..theme import MUTED, seat_color
from .faces import (
    CHIP,
    card_face,
    card_label,
    card_style,
    card_tile,
    cell_tags,
    head_cells,
    pad,
    seat_chip,
    seat_emphasis,
    styled,
)
from .strips import text_strip


@dataclass(frozen=True, slots=True)
class SeatLooks:
    """How each seat looks on the board: its colour and its short tag (what a view needs to know
    about the players)."""

    colors: tuple[str, ...]
    tags: tuple[str, ...]
    short_tags: tuple[str, ...] = ()
    """Tags in two cells, all different, for a card too narrow for its value and a whole tag
    (the tags cut to two cells when not given)."""

    @classmethod
    def of(cls, game: Game) -> SeatLooks:
        names = [s.name for s in game.created.players]
        colors = tuple(s.color for s in game.created.players)
        return cls(colors, tuple(cell_tags(names, GUTTER)), tuple(cell_tags(names, SHORT_TAG)))

    def short_tag(self, p: int) -> str:
        return self.short_tags[p] if self.short_tags else head_cells(self.tags[p], SHORT_TAG)

    @property
    def n(self) -> int:
        return len(self.colors)


class Ghost(NamedTuple):
    """A card a player has chosen but not placed yet, drawn faintly under the selected column."""

    player: int
    card: int


@dataclass(slots=True)
class ColumnModel:
    """Everything one column shows. ``outcome`` is a projection unless ``resolved``."""

    index: int
    cards: list[str]
    placed: list[list[int]]
    outcome: ColumnResolved | None = None
    resolved: bool = False
    selected: bool = False
    focus: bool = False
    ghost: Ghost | None = None
    """The card about to be placed here: drawn faintly."""
    returned: dict[str, int] = field(default_factory=dict)
    """Goods given back to this column by an exchange -> who gave them (shown after a resolution)."""


def tile_rows_for(height: int, players: int) -> int:
    """How many lines a card gets in a column ``height`` lines tall (1 to 3)."""
    free = height - 2 - players
    return max(1, min(3, free // COLUMN_HEIGHT))


def column_height(tile_rows: int, players: int) -> int:
    return 1 + COLUMN_HEIGHT * tile_rows + players + 1


def column_lines(model: ColumnModel, looks: SeatLooks, width: int, height: int) -> list[Text]:
    """The column as ``height`` lines of ``width`` cells (pure: the tests read it directly)."""
    n = looks.n
    width = max(3, width)
    tile_rows = tile_rows_for(height, n)
    card_area = max(1, height - 2 - n)
    lines: list[Text] = []

    # header: the letter (and the key that chooses it)
    label = column_label(model.index)
    if model.focus:
        head = styled(f"▶ {label} ◀".center(width), CHIP)
    elif model.selected:  # dark on light, not reversed: a reversed header is grey on white in 16 colours
        head = styled(f"▸ {label} ◂".center(width), Style(bgcolor=SELECTED_HEAD, color="#1a1a1a", bold=True))
    else:
        head = styled(label.center(width), Style(bold=True))
    lines.append(head)

    # cards, top of the stack first; the bottom card sits just above the players' rows
    takers: dict[int, int] = {}
    if model.outcome is not None and not model.resolved:
        taken: set[int] = set()
        for award in model.outcome.awards:
            for i, card in enumerate(model.cards):
                if i not in taken and card == award.card:
                    taken.add(i)
                    takers[i] = award.player
                    break
    returned_left = dict(model.returned)
    card_lines: list[Text] = []
    for i in range(len(model.cards) - 1, -1, -1):
        card = model.cards[i]
        tags: tuple[Text, ...] = ()
        if i in takers:
            p = takers[i]
            tags = (seat_chip(looks.tags[p], looks.colors[p]), seat_chip(looks.short_tag(p), looks.colors[p]))
        elif model.resolved and card in returned_left:
            p = returned_left.pop(card)
            mark = f"⇄{looks.tags[p]}" if width >= 8 + cell_len(looks.tags[p]) + 2 or tile_rows > 1 else "⇄"
            tags = (seat_chip(mark, looks.colors[p]),)
        card_lines.extend(_card_with_tag(card, width, tile_rows, tags))
    if not model.cards:
        card_lines = [styled(_("empty").center(width), Style(color=MUTED, italic=True))]
    if len(card_lines) > card_area:  # too short for every card: keep the bottom ones
        hidden = len(card_lines) - card_area + 1
        card_lines = [styled(f"▲ +{hidden}".center(width), Style(color=MUTED)), *card_lines[hidden:]]
    blank = Text(" " * width)
    lines.extend([blank] * (card_area - len(card_lines)))
    lines.extend(card_lines)

    # one row per player: their cards here and their total
    for p in range(n):
        lines.append(_player_row(model, looks, p, width))

    lines.append(_outcome_row(model, looks, width))
    return lines[:height] if height >= 3 else lines[:1]


def _card_with_tag(card: str, width: int, rows: int, tags: tuple[Text, ...]) -> list[Text]:
    """A card of the column, with the tag of whoever would take it (or gave it back) at its right,
    a space apart (``HOL 500 Ana``: the value never runs into the tag, colours or not). ``tags``:
    the tag, then shorter ones. A one-line card keeps its value whole: short of room, the tag
    shortens first (``HOL 500 An``), then the label takes its shorter forms (``HOL500 An``); with no
    room for both (a compact table's narrow columns) the card alone, its value whole: the rows of
    number cards below say who placed what."""
    tag = tags[0] if tags else None
    if rows > 1:
        return card_tile(card, width, rows, tag)
    lead_room = width >= 12
    if tag is None:
        return [card_face(card, width, pad=lead_room)]
    code, value = card_code(card), card_value_label(card)
    compact = f"{code}{value}"
    labels = dict.fromkeys((card_label(card, width - lead_room), f"{code} {value}", compact))  # the column's first
    fits = ((text, chip) for text in labels for chip in tags if len(text) + 1 + chip.cell_len <= width)
    found = next(fits, None)
    if found is None:  # (the compact table's columns): the card's value, not a tag over its last cells
        return [card_face(card, width, pad=lead_room)]
    text, chip = found
    face_w = width - chip.cell_len - 1
    lead = " " if lead_room and len(text) + 2 <= face_w else ""
    face = styled(f"{lead}{text} ".ljust(face_w + 1)[: face_w + 1], card_style(card))
    face.append_text(chip)
    return [face]


def _player_row(model: ColumnModel, looks: SeatLooks, p: int, width: int) -> Text:
    cards = model.placed[p]
    color = looks.colors[p]
    row = Text()
    ghost = model.ghost is not None and model.ghost.player == p
    outcome = model.outcome
    total = sum(cards)
    if model.resolved and outcome is not None and cards:
        award = next((a for a in outcome.awards if a.player == p), None)
        row.append_text(seat_chip(f"{total:>2}", color))
        room = width - 3
        row.append(" ")
        if award is not None:
            label = card_label(award.card, room)
            row.append(label.ljust(room)[:room], style=card_style(award.card, bold=True))
        elif p in outcome.cancelled:
            row.append(_("✗ tie").ljust(room)[:room], style=Style(color=MUTED, strike=False, bold=True))
        else:
            row.append(_("– none").ljust(room)[:room], style=Style(color=MUTED))
        return _fit(row, width)
    if not cards and not ghost:
        return _fit(styled(" ·", Style(color="#2f5544")), width)
    cancelled = outcome is not None and p in outcome.cancelled
    mark = f"✗{total}" if cancelled else f"={total}" if len(cards) > 1 else ""
    extra = f"+{model.ghost.card}" if ghost and model.ghost is not None else ""
    # cards spaced out if they fit with the total, else packed together (digits on the seat colour)
    sep = " "
    if 1 + 2 * len(cards) - 1 + (len(extra) + 1 if extra else 0) + (len(mark) + 1 if mark else 0) > width:
        sep = ""
    row.append(" ")
    for i, card in enumerate(cards):
        if i:
            row.append(sep)
        row.append_text(seat_chip(str(card), color, dim=model.resolved))
    if extra:
        if cards:
            row.append(" ")
        row.append(extra, style=seat_emphasis(color) + Style(italic=True, underline=True))
    if mark:
        gap = max(1, width - len(row.plain) - len(mark))
        row.append(" " * gap)
        row.append(mark, style=Style(color=seat_color(color), bold=True, strike=cancelled))
    return _fit(row, width)


def _outcome_row(model: ColumnModel, looks: SeatLooks, width: int) -> Text:
    outcome = model.outcome
    muted = Style(color=MUTED)
    if outcome is None:
        return Text(" " * width)
    returned = [(a.player, a.returned) for a in outcome.awards if a.returned is not None]
    if returned:
        p, card = returned[0]
        row = seat_chip("⇄", looks.colors[p])
        label = card_label(card, width - 2)
        row.append(" ")
        row.append(label[: width - 2], style=card_style(card))
        if len(returned) > 1 and len(row.plain) < width:
            row.append("…", style=muted)
        return _fit(row, width)
    if outcome.rotated:
        return styled("↻".center(width)[:width], muted)
    if model.resolved:
        return styled("✓".center(width), muted)
    if not any(outcome.totals):
        return Text(" " * width)
    left = [
        p
        for p, t in enumerate(outcome.totals)
        if t and p not in outcome.cancelled and all(a.player != p for a in outcome.awards)
    ]
    if left:
        return styled(_("runs out").center(width)[:width], muted)
    return Text(" " * width)


def _fit(text: Text, width: int) -> Text:
    """``text`` cut or filled to ``width`` cells."""
    text.truncate(width, pad=True)
    return text


GUTTER = 3
SHORT_TAG = 2
"""Cells left of the columns for the players' tags (beside their rows)."""
GAP = 1
"""Cells between two columns."""
SELECTED_BG = "#1b4634"
SELECTED_HEAD = "#f4f1e8"
FOCUS_BG = "#3a3a1c"
HOVER_BG = "#133427"


def column_spans(width: int) -> list[tuple[int, int]]:
    """(x, width) of each column in a board ``width`` cells wide: the gutter, then seven columns
    sharing the rest as evenly as cells allow (the wider ones to the right)."""
    room = max(COLUMNS * 3, width - GUTTER - COLUMNS * GAP)
    base, extra = divmod(room, COLUMNS)
    spans: list[tuple[int, int]] = []
    x = GUTTER
    for c in range(COLUMNS):
        w = base + (1 if c >= COLUMNS - extra else 0)
        x += GAP
        spans.append((x, w))
        x += w
    return spans


def gutter_lines(looks: SeatLooks, turn: int | None, height: int) -> list[Text]:
    """The players' tags level with their rows, so a row is never read by colour alone."""
    n = looks.n
    lines = [Text(" " * GUTTER) for _ in range(max(0, height - n - 1))]
    for p in range(n):
        style = Style(color=seat_color(looks.colors[p]), bold=True, reverse=p == turn)
        lines.append(styled(pad(looks.tags[p], GUTTER), style))
    lines.append(Text(" " * GUTTER))
    return lines[-height:] if height else []


class Board(Widget):
    """The table's seven columns and the players' tags, drawn as one widget (one piece of screen
    to compose, which keeps start-up and every redraw quick). A click chooses the column under it.
    """

    DEFAULT_CSS = """
    Board { height: 1fr; width: 1fr; }
    """

    class ColumnClicked(Message):
        def __init__(self, column: int) -> None:
            super().__init__()
            self.column = column

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.models: list[ColumnModel] = []
        self.looks = SeatLooks(("red", "yellow", "green"), ("P1", "P2", "P3"))
        self.turn: int | None = None
        self.hover: int | None = None
        self._cache: dict[int, tuple[tuple[object, ...], list[Text]]] = {}
        self._strips: list[Strip] | None = None
        self._strips_size = (0, 0)

    def show(
        self,
        game: Game,
        *,
        selected: int | None = None,
        focus: int | None = None,
        results: Mapping[int, ColumnResolved] | None = None,
        ghost: Ghost | None = None,
        project: bool = True,
    ) -> None:
        """Draw ``game``. ``results``: columns already resolved this round (shown as what they
        gave); the rest show the engine's projection when ``project`` is set."""
        models = build_models(game, selected=selected, focus=focus, results=results, ghost=ghost, project=project)
        looks = SeatLooks.of(game)
        turn = game.to_move if game.phase == Phase.PLACEMENT else None
        if (models, looks, turn) != (self.models, self.looks, self.turn):
            self.models, self.looks, self.turn = models, looks, turn
            self.refresh()

    def column_at(self, x: int) -> int | None:
        for c, (left, w) in enumerate(column_spans(self.size.width)):
            if left <= x < left + w:
                return c
        return None

    def column_offset(self, column: int) -> tuple[int, int]:
        """A point inside ``column`` (relative to the board), e.g. for a test's click."""
        left, w = column_spans(self.size.width)[column]
        return left + w // 2, 1

    def _column(self, model: ColumnModel, width: int, height: int) -> list[Text]:
        key = (model, self.looks, width, height, model.index == self.hover)
        cached = self._cache.get(model.index)
        if cached is not None and cached[0] == key:
            return cached[1]
        lines = column_lines(model, self.looks, width, height)
        bg = FOCUS_BG if model.focus else SELECTED_BG if model.selected else HOVER_BG if key[-1] else None
        if bg is not None:
            for line in lines:
                line.stylize_before(Style(bgcolor=bg))
        self._cache[model.index] = (key, lines)
        return lines

    def board_lines(self, width: int, height: int) -> list[Text]:
        """The whole board as ``height`` lines of ``width`` cells."""
        if not self.models or height <= 0:
            return []
        rows = gutter_lines(self.looks, self.turn, height)
        spans = column_spans(width)
        columns = [self._column(m, w, height) for m, (_, w) in zip(self.models, spans, strict=True)]
        out: list[Text] = []
        gap = " " * GAP
        for y in range(height):
            line = rows[y].copy() if y < len(rows) else Text(" " * GUTTER)
            for lines in columns:
                line.append(gap)
                line.append_text(lines[y] if y < len(lines) else Text())
            out.append(line)
        return out

    def refresh(self, *args: object, **kwargs: object) -> Self:
        self._strips = None
        return super().refresh(*args, **kwargs)  # type: ignore[arg-type]

    def render_line(self, y: int) -> Strip:
        """Lines are drawn straight to segments (no text wrapping to work out): the board is
        redrawn often and is most of the screen."""
        width, height = self.size.width, self.size.height
        if self._strips is None or self._strips_size != (width, height):
            console = self.app.console
            base = self.rich_style
            self._strips = [text_strip(line, console, base, width) for line in self.board_lines(width, height)]
            self._strips_size = (width, height)
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(width, self.rich_style)

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        column = None if offset is None else self.column_at(offset.x)
        if column is not None:
            event.stop()
            self.post_message(self.ColumnClicked(column))

    def on_mouse_move(self, event: MouseMove) -> None:
        offset = event.get_content_offset(self)
        column = None if offset is None else self.column_at(offset.x)
        if column != self.hover:
            self.hover = column
            self.refresh()

    def on_leave(self, event: Leave) -> None:
        if self.hover is not None:
            self.hover = None
            self.refresh()


def build_models(
    game: Game,
    *,
    selected: int | None = None,
    focus: int | None = None,
    results: Mapping[int, ColumnResolved] | None = None,
    ghost: Ghost | None = None,
    project: bool = True,
) -> list[ColumnModel]:
    """Per column, what to draw; the projection comes from the engine."""
    results = results or {}
    projected: dict[int, ColumnResolved] = {}
    if project and game.phase in (Phase.PLACEMENT, Phase.RESOLVING):
        events = game.projected()[0]
        projected = {e.column: e for e in events}
    placed: list[list[list[int]]] = [[[] for _ in range(game.n)] for _ in range(COLUMNS)]
    for event in game.placements:
        placed[event.column][event.player].append(event.card)
    models: list[ColumnModel] = []
    for c in range(COLUMNS):
        result = results.get(c)
        returned = {a.returned: a.player for a in result.awards if a.returned is not None} if result else {}
        models.append(
            ColumnModel(
                index=c,
                cards=list(game.columns[c]),
                placed=placed[c],
                outcome=result if result is not None else projected.get(c),
                resolved=result is not None,
                selected=c == selected,
                focus=c == focus,
                ghost=ghost if c == selected else None,
                returned=returned,
            )
        )
    return models
