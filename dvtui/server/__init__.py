"""``dvtui serve``: the table server, a front beside the app and the browser's (only the command
line and the benchmarks import it): :func:`~.main.serve` runs it. What it stands on below, the
wire and the client, is :mod:`dvtui.tables`; its storage is :mod:`.stores`.

The package itself imports nothing: a bot's worker process (``python -m dvtui.server.think``)
stays light to start."""

from __future__ import annotations


class AlreadyServed(Exception):
    """Another ``dvtui serve`` holds the directory's lock."""


__all__ = ["AlreadyServed"]
