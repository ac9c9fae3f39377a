"""Driving the app through Textual's Pilot when something outside it (a table client's messages, a
worker) moves it on: waiting for what the screen shows, and a widget's text as drawn."""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from textual.app import App
from textual.pilot import Pilot

from dvtui.app.textual_private import compositor

from .waits import poll

WAIT = 60.0
"""Seconds before a wait is a failure (never reached when things work)."""


async def until(pilot: Pilot[object], what: str, check: Callable[[], bool]) -> None:
    """Let the app run until ``check()`` (a client or a worker posts to it meanwhile)."""
    await poll(what, check, lambda: pilot.pause(0.02), WAIT)


def text(widget: object) -> str:
    """What a widget draws, as plain text."""
    return str(widget.render())  # type: ignore[attr-defined]


def screen_cells(app: App[object]) -> list[list[str]]:
    """The screen as drawn, one list entry per terminal cell (a wide character's second cell is
    ``""``), so that a column is found by its cell, not by counting characters."""
    rows: list[list[str]] = []
    for strip in compositor(app.screen).render_strips():
        cells: list[str] = []
        for segment in strip:
            for char in segment.text:
                cells.append(char)
                cells.extend([""] * (cell_len(char) - 1))
        rows.append(cells)
    return rows


def screen_lines(app: App[object]) -> list[str]:
    return ["".join(row) for row in screen_cells(app)]
