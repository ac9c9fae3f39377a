"""Driving the app through Textual's Pilot when something outside it (a table client's messages, a
worker) moves it on: waiting for what the screen shows, and a widget's text as drawn; and keys,
clicks and resizes each handled before the test goes on, without Pilot's idle waits (which guess
from the CPU time the process used, take tens of milliseconds a step, and can guess wrong when the
machine is busy)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from rich.cells import cell_len
from textual.app import App
from textual.events import Key, MouseDown, MouseUp, Resize
from textual.geometry import Size
from textual.pilot import Pilot
from textual.widget import Widget

from dvtui.app.textual_private import compositor, hand_on_size, messages_waiting, settle

from .waits import poll

WAIT = 60.0
"""Seconds before a wait is a failure (never reached when things work)."""


async def until(pilot: Pilot[object], what: str, check: Callable[[], bool]) -> None:
    """Let the app run until ``check()`` (a client or a worker posts to it meanwhile)."""
    await poll(what, check, lambda: pilot.pause(0.02), WAIT)


CHARACTERS = {"space": " ", "tab": "\t", "escape": "\x1b", "minus": "-", "plus": "+", "question_mark": "?"}
"""The character a named key types (one of one character types itself; the others, such as enter,
the arrows or ctrl+s, type none), as Textual's Pilot gives it."""
NAMES = {character: name for name, character in CHARACTERS.items()}
"""The name of the key that types each of those characters (a name typed as ``" "`` is ``space``)."""


async def settled(pilot: Pilot[object]) -> None:
    """Until no message waits anywhere in the app (the app, each screen of its stack, each widget),
    the last frame drawn: each round lets every one of them handle what it held, and a key that
    bubbles up from the focused widget to the app, or an action that posts more, takes a few
    rounds. Unlike :meth:`Pilot.pause`, which guesses from the CPU time the process used, this
    holds whatever the machine's load (a worker's result still waits for its thread, though). A
    message a node took off its queue to look ahead counts as waiting: on a busy machine the news
    the table tells the timeline can sit there while the timeline's idle handlers let this run."""
    app = pilot.app
    while True:
        await settle(pilot)
        await app.animator.wait_until_complete()
        nodes = [app, *(node for screen in app.screen_stack for node in screen.walk_children(with_self=True))]
        if not any(messages_waiting(node) for node in nodes):
            return


async def press(pilot: Pilot[object], *keys: str) -> None:
    """Type ``keys`` as :meth:`Pilot.press` does, each handled (and its action run) before the
    next, without Pilot's idle waits: those take tens of milliseconds a key, most of a whole game's
    time in the tests, where this takes a millisecond or two."""
    for key in keys:
        if len(key) == 1:  # a character, named as Pilot.press names it ("space" for " ")
            name, character = NAMES.get(key, key), key
        else:
            name, character = key, CHARACTERS.get(key)
        pilot.app.post_message(Key(name, character))
        await settled(pilot)


async def click(pilot: Pilot[object], widget: Widget | str, offset: tuple[int, int] = (0, 0)) -> bool:
    """A click on ``widget`` (or the widget a selector finds) at ``offset`` within it, as a terminal
    reports one (the button pressed and let go there: the app makes the click of them), handled
    before this returns, without :meth:`Pilot.click`'s idle waits; whether ``widget`` was the one
    under the pointer."""
    app = pilot.app
    await settled(pilot)  # where the widget is now drawn (one just shown has no place before its frame)
    target = app.screen.query_one(widget) if isinstance(widget, str) else widget
    x, y = target.region.offset + offset
    under, _ = app.get_widget_at(x, y)
    for kind in (MouseDown, MouseUp):
        app.post_message(kind(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y))
        await settled(pilot)
    return under is target


async def resize(pilot: Pilot[object], width: int, height: int) -> None:
    """The terminal resized to ``width`` x ``height`` as :meth:`Pilot.resize_terminal` does, and
    the screen laid out and drawn at that size, without Pilot's idle wait: the app hands the size
    to its screen after a short timer (a terminal reports a resize as a burst of sizes), which this
    does at once, once the app has taken the size."""
    app = pilot.app
    size = Size(width, height)
    app.post_message(Resize(size, size))

    def laid_out() -> bool:  # (the screen's own size is the app's at once: what it draws is not)
        return compositor(app.screen).size == size

    await settled(pilot)
    if not laid_out():
        hand_on_size(app)
    await poll(f"the screen laid out at {width}x{height}", laid_out, lambda: asyncio.sleep(0.005), WAIT)
    await settled(pilot)


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
