"""Rich text as a line of a widget drawn straight to segments (``render_line``).

Every segment of such a line, the padding to the widget's width included, carries a style (the
widget's own under the text's): Textual's colour filters (``NO_COLOR`` turns one on) read the
style of each segment they are given and have nothing to read in a segment without one.
"""

from __future__ import annotations

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip


def text_strip(text: Text, console: Console, base: Style, width: int) -> Strip:
    """``text`` on ``base`` (the widget's style), cut or padded to ``width`` cells."""
    segments = Segment.apply_style(list(text.render(console)), base)
    return Strip(segments, text.cell_len).adjust_cell_length(width, base)
