"""``dvtui serve``: the table server, a front beside the app and the browser's (only the command
line and the benchmarks import it). What it stands on below, the wire and the client, is
:mod:`dvtui.tables`; its storage is :mod:`.stores`."""

from __future__ import annotations


class AlreadyServed(Exception):
    """Another ``dvtui serve`` holds the directory's lock."""


from .main import Server, serve  # noqa: E402  (main raises AlreadyServed, defined above first)

__all__ = ["AlreadyServed", "Server", "serve"]
