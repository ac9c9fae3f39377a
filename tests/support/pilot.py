"""Driving the app through Textual's Pilot when something outside it (a table client's messages, a
worker) moves it on: waiting for what the screen shows, and a widget's text as drawn."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot

WAIT = 60.0
"""Seconds before a wait is a failure (never reached when things work)."""


async def until(pilot: Pilot[object], what: str, check: Callable[[], bool]) -> None:
    """Let the app run until ``check()`` (a client or a worker posts to it meanwhile)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while not check():
        if loop.time() - start > WAIT:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def text(widget: object) -> str:
    """What a widget draws, as plain text."""
    return str(widget.render())  # type: ignore[attr-defined]
