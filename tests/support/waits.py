"""The one async wait of the tests: poll a check while the running loop goes on, up to a limit.

Both a Pilot-driven app (which must be let run between checks) and plain asyncio clients wait this
way; they differ only in how they yield to the loop and how long a failure may take to show."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


async def poll(what: str, check: Callable[[], bool], pause: Callable[[], Awaitable[object]], limit: float) -> None:
    """Until ``check()``, awaiting ``pause()`` between looks; ``limit`` seconds without it fail the test."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while not check():
        if loop.time() - start > limit:
            raise AssertionError(f"timed out waiting for {what}")
        await pause()
