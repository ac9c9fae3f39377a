"""The replay's position bar: the whole game on one line, its rounds marked, the moment shown.

::

    ‖ 34/141  1━━━━━━━━━━━━━┅┅┅2━━━━━●────────┄┄┄3─────────────┄┄┄4──── …

Each round starts at its number; a round's resolution is drawn in gold; what has been played is a
heavy line, what is still to come a thin one. A click anywhere on the track jumps there (a click on
a round's number, to that round's start). With a second line of room, the rounds are named under
their marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...i18n import _
from ..theme import GOLD, MUTED
from .faces import CHIP
from .strips import text_strip

PAST = Style(color="#e8efe9", bold=True)
FUTURE = Style(color="#3d5f50")
RESOLUTION_PAST = Style(color=GOLD, bold=True)
RESOLUTION_FUTURE = Style(color="#6b6232")
MARK = Style(color="#1a1a1a", bgcolor="#7fd39a", bold=True)
MARK_FUTURE = Style(color="#7fd39a", bold=True)
CURSOR = Style(color=GOLD, bold=True)
HERE_MARK = CHIP


@dataclass(frozen=True, slots=True)
class Track:
    """What the bar draws, independent of the moment: where the rounds start and which moments
    are a resolution (derived events)."""

    last: int
    round_starts: tuple[int, ...]
    resolution: tuple[bool, ...]


def cell_of(moment: int, last: int, cells: int) -> int:
    """The cell of the track that shows ``moment`` (0 .. cells - 1)."""
    if last <= 0 or cells <= 1:
        return 0
    return round(moment * (cells - 1) / last)


def moment_at(x: int, track: Track, cells: int) -> int:
    """The moment a click on cell ``x`` jumps to: a round's start if its mark is there, else the
    moment drawn in that cell nearest to the cell's place on the scale."""
    x = max(0, min(cells - 1, x))
    for start in track.round_starts:
        if cell_of(start, track.last, cells) == x:
            return start
    if cells <= 1 or track.last <= 0:
        return 0
    return max(0, min(track.last, round(x * track.last / (cells - 1))))


def track_text(track: Track, moment: int, cells: int) -> Text:
    """The track, ``cells`` wide, with ``moment`` marked (runs of one look are one span each: the
    bar is redrawn at every step)."""
    text = Text()
    if cells <= 0:
        return text
    last = track.last
    marks = {cell_of(start, last, cells): r + 1 for r, start in enumerate(track.round_starts)}
    here = cell_of(moment, last, cells)
    run: list[str] = []
    run_style: Style | None = None
    for x in range(cells):
        if x in marks:
            char = str(marks[x])[-1]
            style = HERE_MARK if x == here else MARK if x < here else MARK_FUTURE
        elif x == here:
            char, style = "●", CURSOR
        else:
            at = round(x * last / (cells - 1)) if cells > 1 else 0
            past = x < here
            if 0 <= at <= last and track.resolution[at]:
                char, style = ("┅", RESOLUTION_PAST) if past else ("┄", RESOLUTION_FUTURE)
            else:
                char, style = ("━", PAST) if past else ("─", FUTURE)
        if style is not run_style and run:
            text.append("".join(run), style=run_style)
            run = []
        run_style = style
        run.append(char)
    if run:
        text.append("".join(run), style=run_style)
    return text


def legend_text(track: Track, moment: int, cells: int, current_round: int) -> Text:
    """Under the track: ``round 1`` under each round's mark, as far as there is room."""
    line = [" "] * cells
    spans: list[tuple[int, int, int]] = []
    starts = [cell_of(s, track.last, cells) for s in track.round_starts]
    for r, x in enumerate(starts):
        room = (starts[r + 1] if r + 1 < len(starts) else cells) - x - 1
        for label in (_("round {round}").format(round=r + 1), _("R{round}").format(round=r + 1), f"{r + 1}"):
            if len(label) <= room or (r + 1 == len(starts) and len(label) <= cells - x):
                line[x : x + len(label)] = list(label)
                spans.append((x, x + len(label), r + 1))
                break
    text = Text("".join(line), style=Style(color=MUTED))
    for start, end, round_ in spans:
        if round_ == current_round:
            text.stylize(Style(color=GOLD, bold=True), start, end)
    return text


class TimelineBar(Widget):
    """The position bar. ``show()`` moves it; a click posts :class:`TimelineBar.Jump`."""

    DEFAULT_CSS = """
    TimelineBar { height: 1; width: 1fr; background: #0b2219; }
    TimelineBar.-tall { height: 2; }
    """

    class Jump(Message):
        """The player clicked the bar: go to ``moment``."""

        def __init__(self, moment: int) -> None:
            super().__init__()
            self.moment = moment

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.track = Track(0, (0,), (False,))
        self.moment = 0
        self.round = 1
        self.status = ""
        self._strips: list[Strip] | None = None
        self._strips_width = 0

    def set_track(self, last: int, round_starts: Sequence[int], resolution: Sequence[bool]) -> None:
        track = Track(last, tuple(round_starts), tuple(resolution))
        if track != self.track:
            self.track = track
            self.refresh()

    def show(self, moment: int, round_: int, status: str) -> None:
        """``status``: the words left of the track (play or pause, the moment's number)."""
        if (moment, round_, status) != (self.moment, self.round, self.status):
            self.moment, self.round, self.status = moment, round_, status
            self.refresh()

    @property
    def _label(self) -> str:
        return f" {self.status} "

    def _cells(self) -> int:
        return max(0, self.size.width - len(self._label) - 1)

    def refresh(self, *args: object, **kwargs: object) -> Self:
        self._strips = None
        return super().refresh(*args, **kwargs)  # type: ignore[arg-type]

    def render_line(self, y: int) -> Strip:
        """Drawn straight to segments (no text layout to work out): the bar changes at every step."""
        width = self.size.width
        if self._strips is None or self._strips_width != width:
            label = self._label
            cells = self._cells()
            line = Text(label, style=Style(bold=True))
            line.append_text(track_text(self.track, self.moment, cells))
            lines = [line]
            if self.size.height >= 2:
                legend = Text(" " * len(label))
                legend.append_text(legend_text(self.track, self.moment, cells, self.round))
                lines.append(legend)
            console = self.app.console
            base = self.rich_style
            self._strips = [text_strip(text, console, base, width) for text in lines]
            self._strips_width = width
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(width, self.rich_style)

    def on_click(self, event: Click) -> None:
        event.stop()
        offset = event.get_content_offset(self)
        cells = self._cells()
        if offset is None or cells <= 0 or offset.x < len(self._label):
            return
        x = offset.x - len(self._label)
        self.post_message(self.Jump(moment_at(x, self.track, cells)))
