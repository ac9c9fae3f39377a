"""Every private name of textual-serve that ``dvtui web`` builds on, and only those, in one place.
textual-serve is pinned (pyproject.toml); tests/test_privates.py names each of them and checks its
shape, so an upgrade that moves one fails there, in one place, rather than in a tab.

- ``AppService._build_environment(width, height)``: the environment textual-serve gives a tab's
  process (the web driver, its colours, the size). dvtui takes an inherited person out of it, and
  gives a spare (a tab's process started before its tab) the same one: textual-serve has no public
  way to do either.
- ``AppService._open_app_process(width, height)``: where a tab's process is started. dvtui hands
  the tab its spare there instead, started already.
- ``AppService._process`` and ``AppService._stdin``: the tab's process and its standard input, which
  the service's ``run`` and ``stdin`` read; a tab that takes a spare sets them to the spare's.
- ``Server._make_app()``: the aiohttp application (routes, templates, start-up and shut-down).
  ``dvtui web --socket`` runs it on a Unix socket of its own, which ``Server.serve`` cannot.
- ``textual_serve.server.AppService``: the module's global by which ``Server.handle_websocket``
  makes each tab's service; the one way to have a service of one's own is to replace it.
"""

from __future__ import annotations

from asyncio.subprocess import Process
from types import SimpleNamespace

from aiohttp import web
from textual_serve import server as serve_module
from textual_serve.app_service import AppService
from textual_serve.server import Server


class HookedService(AppService):
    """textual-serve's service of one tab, with its private steps turned into public methods that a
    subclass overrides (and calls ``super()`` of) instead."""

    def environment(self, width: int, height: int) -> dict[str, str]:
        """The environment of this tab's process: textual-serve's."""
        return AppService._build_environment(self, width, height)

    async def open_process(self, width: int, height: int) -> Process:
        """Start this tab's process: textual-serve's way, a new one."""
        return await AppService._open_app_process(self, width, height)

    def adopt(self, process: Process) -> None:
        """Make ``process`` (started already, its standard input a pipe) this tab's."""
        assert process.stdin is not None
        self._process, self._stdin = process, process.stdin

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return self.environment(width, height)

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        return await self.open_process(width, height)


def tab_environment(width: int, height: int) -> dict[str, str]:
    """textual-serve's environment for a tab's process, with no tab yet (a spare's): the method
    reads nothing of its service but ``debug``."""
    return AppService._build_environment(SimpleNamespace(debug=False), width, height)  # type: ignore[arg-type]


def serve_each_tab_with(service: type[HookedService]) -> None:
    """Every tab's service, from now on, is a ``service``."""
    serve_module.AppService = service  # type: ignore[attr-defined]  # (the module's global, not re-exported)


async def make_app(server: Server) -> web.Application:
    """``server``'s aiohttp application, as its ``serve`` would run it."""
    return await server._make_app()
