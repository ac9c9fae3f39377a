"""Each private name of a pinned dependency that dvtui builds on, named here and checked for the
shape dvtui uses (where it lives, its parameters, what it holds): Textual's, all used through
dvtui/app/textual_private.py, and textual-serve's, through dvtui/web/serve_private.py. An upgrade
that moves or reshapes one fails here, saying which and where dvtui relies on it, rather than in
a screen or a browser tab."""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Callable
from importlib import import_module
from typing import Any

import pytest
from textual.app import App
from textual.binding import BindingsMap
from textual.driver import Driver
from textual.notifications import Notification, Notifications
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static
from textual_serve.app_service import AppService
from textual_serve.server import Server

from dvtui.app import textual_private
from dvtui.web import serve_private

TEXTUAL = "dvtui/app/textual_private.py"
SERVE = "dvtui/web/serve_private.py"


def member(owner: object, name: str, user: str) -> Any:
    """``owner.name`` (``owner`` a class, or an instance for what its ``__init__`` sets), or a
    failure naming it and the module of dvtui that relies on it."""
    kind = owner if isinstance(owner, type) else type(owner)
    where = f"{kind.__module__}.{kind.__qualname__}.{name}"
    assert name in dir(owner), f"{where} is gone: {user} relies on it"
    return getattr(owner, name)


def takes(function: Callable[..., Any], params: list[str], where: str, *, coroutine: bool = False) -> None:
    """``function`` has exactly ``params`` (and is a coroutine function if ``coroutine``)."""
    have = list(inspect.signature(function).parameters)
    assert have == params, f"{where} now takes ({', '.join(have)}), not ({', '.join(params)})"
    assert inspect.iscoroutinefunction(function) == coroutine, f"{where}: async is {not coroutine} now"


def reads(function: Callable[..., Any], name: str, where: str) -> None:
    """``function``'s own code looks ``name`` up (an attribute or a global), as dvtui counts on."""
    assert name in function.__code__.co_names, f"{where} no longer uses {name}"


# Textual ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "name", "base"),
    [("textual.widgets._footer", "FooterKey", Widget), ("textual.widgets._toast", "Toast", Static),
     ("textual.widgets._select", "SelectCurrent", Widget)],
)  # fmt: skip
def test_textuals_unexported_widgets_are_where_dvtui_imports_them(module: str, name: str, base: type) -> None:
    kind = getattr(import_module(module), name, None)
    assert kind is not None, f"{module}.{name} is gone: {TEXTUAL} imports it"
    assert issubclass(kind, base) and getattr(textual_private, name) is kind


def test_a_widgets_default_css_comes_from_its_class_alone() -> None:
    """``DOMNode._get_default_css()``, called on an instance that was never initialised."""
    takes(member(Footer, "_get_default_css", TEXTUAL), ["self"], "DOMNode._get_default_css")
    sources = textual_private.default_css(Footer)
    assert sources and sources[0][1] == Footer.DEFAULT_CSS  # (the class first, then its bases)
    for (path, variable), css, tie_breaker, scope in sources:
        assert isinstance(path, str) and variable.endswith(".DEFAULT_CSS") and css
        assert isinstance(tie_breaker, int) and isinstance(scope, str)


def test_an_apps_notifications_can_be_read_and_one_dropped() -> None:
    """``App._notifications`` (iterable, sized) and ``App._unnotify(notification, refresh)``."""
    takes(member(App, "_unnotify", TEXTUAL), ["self", "notification", "refresh"], "App._unnotify")
    app: App[None] = App()
    assert isinstance(member(app, "_notifications", TEXTUAL), Notifications)

    async def run() -> list[str]:
        async with app.run_test() as pilot:
            app.notify("one")
            app.notify("two")
            await pilot.pause()
            textual_private.unnotify(app, textual_private.notifications(app)[0])
            return [str(n.message) for n in textual_private.notifications(app)]

    assert asyncio.run(run()) == ["two"]
    assert all(isinstance(n, Notification) for n in textual_private.notifications(app))


def test_a_screens_compositor_and_a_nodes_bindings_are_there() -> None:
    """``Screen._compositor`` (``render_strips``, ``get_style_at``) and ``DOMNode._bindings``."""
    screen: Screen[None] = Screen()
    drawn = member(screen, "_compositor", TEXTUAL)
    for name in ("render_strips", "get_style_at"):
        member(drawn, name, "the tests, through " + TEXTUAL)
    assert isinstance(member(screen, "_bindings", TEXTUAL), BindingsMap)
    assert textual_private.compositor(screen) is drawn


def test_an_apps_driver_takes_keys() -> None:
    """``App._driver``: None until the app runs, then a driver a key is sent to."""
    app: App[None] = App()
    assert member(app, "_driver", TEXTUAL) is None
    member(Driver, "send_message", "the benches, through " + TEXTUAL)

    async def run() -> bool:
        async with app.run_test():
            return isinstance(textual_private.driver(app), Driver)

    assert asyncio.run(run())


def test_a_browser_tabs_driver_sends_the_page_a_message_beside_the_screen() -> None:
    """``WebDriver.write_meta(data)``: what ``tell_page`` calls on the driver of an app in a browser
    tab (textual-serve hands each meta on to its service's ``on_meta``, which ``dvtui web`` extends);
    elsewhere (here, a headless app) nothing is sent."""
    from textual.drivers.web_driver import WebDriver

    from dvtui.app.notify import PAGE_TURN
    from dvtui.web.server import PAGE_TURN as SERVED

    takes(member(WebDriver, "write_meta", TEXTUAL), ["self", "data"], "WebDriver.write_meta")
    takes(AppService.on_meta, ["self", "data"], "AppService.on_meta", coroutine=True)
    assert PAGE_TURN == SERVED  # the app's message is the one dvtui web hands on

    async def run() -> bool:
        app: App[None] = App()
        async with app.run_test():
            return textual_private.tell_page(app, {"type": PAGE_TURN, "turn": True})

    assert asyncio.run(run()) is False


def test_a_frame_settles_as_pilot_pause_settles_it() -> None:
    """``Pilot._wait_for_screen(timeout)`` and ``Screen._on_timer_update()``: what ``pause`` does."""
    takes(member(Pilot, "_wait_for_screen", TEXTUAL), ["self", "timeout"], "Pilot._wait_for_screen", coroutine=True)
    takes(member(Screen, "_on_timer_update", TEXTUAL), ["self"], "Screen._on_timer_update")
    reads(Pilot.pause, "_wait_for_screen", "Pilot.pause")


def test_a_message_taken_off_the_queue_to_look_ahead_still_waits() -> None:
    """``MessagePump._pending_message``: while a node handles one message, the next is out of its
    queue (``message_queue_size`` says 0); :func:`messages_waiting` still counts it."""
    from textual.message import Message

    reads(member(Widget, "_peek_message", TEXTUAL), "_pending_message", "MessagePump._peek_message")
    reads(member(Widget, "_get_message", TEXTUAL), "_pending_message", "MessagePump._get_message")

    class Slow(Message):
        """Handled until the test lets it go."""

    class Next(Message):
        """Posted right behind Slow."""

    class Node(Static):
        def __init__(self) -> None:
            super().__init__()
            self.handling = asyncio.Event()
            self.release = asyncio.Event()
            self.handled: list[str] = []

        async def on_slow(self) -> None:
            self.handling.set()
            await self.release.wait()

        def on_next(self) -> None:
            self.handled.append("next")

    class Holder(App[None]):
        def compose(self) -> Any:
            yield Node()

    async def run() -> tuple[int, int, int, list[str]]:
        app = Holder()
        async with app.run_test():
            node = app.query_one(Node)
            node.post_message(Slow())
            node.post_message(Next())
            await asyncio.wait_for(node.handling.wait(), 60)
            held = node.message_queue_size, textual_private.messages_waiting(node)
            node.release.set()
            while textual_private.messages_waiting(node):
                await asyncio.sleep(0.01)
            return *held, textual_private.messages_waiting(node), node.handled

    assert asyncio.run(run()) == (0, 1, 0, ["next"])


def test_an_app_hands_a_resize_to_its_screens_from_its_timer() -> None:
    """``App._check_resize()``: what the timer ``App._on_resize`` starts calls, taking no argument."""
    takes(member(App, "_check_resize", TEXTUAL), ["self"], "App._check_resize")
    reads(App._on_resize, "_check_resize", "App._on_resize")
    reads(App._check_resize, "_resize_event", "App._check_resize")


def test_a_scrolling_widgets_scrollbars_follow_its_virtual_size_as_a_layout_makes_them() -> None:
    """``Widget._scroll_update(virtual_size)``: what a layout calls for a scrolling widget whose
    virtual size changed (``ScrollView._size_updated``); :func:`resize_contents` calls it alone."""
    from textual.scroll_view import ScrollView

    takes(member(Widget, "_scroll_update", TEXTUAL), ["self", "virtual_size"], "Widget._scroll_update")
    reads(Widget._scroll_update, "_refresh_scrollbars", "Widget._scroll_update")
    reads(ScrollView._size_updated, "_scroll_update", "ScrollView._size_updated")


def test_textual_and_rich_cut_lines_with_their_module_patterns() -> None:
    """``textual._wrap.re_chunk`` and ``rich._wrap.re_word``: compiled patterns that the functions
    cutting a line look up as globals each time, so that ``keep_no_break_spaces`` can replace them."""
    import rich._wrap
    import textual._wrap

    for module, name, function in ((textual._wrap, "re_chunk", "chunks"), (rich._wrap, "re_word", "words")):
        pattern = getattr(module, name, None)
        assert isinstance(pattern, re.Pattern), f"{module.__name__}.{name} is gone: {TEXTUAL} replaces it"
        reads(getattr(module, function), name, f"{module.__name__}.{function}")


# textual-serve ----------------------------------------------------------------------------------


def test_a_tabs_environment_and_process_are_the_services_private_steps() -> None:
    """``AppService._build_environment(width, height)``, ``_open_app_process(width, height)``:
    the start calls the one, which calls the other, so that overriding them changes both."""
    build = member(AppService, "_build_environment", SERVE)
    takes(build, ["self", "width", "height"], "AppService._build_environment")
    takes(member(AppService, "_open_app_process", SERVE), ["self", "width", "height"],
          "AppService._open_app_process", coroutine=True)  # fmt: skip
    reads(AppService.start, "_open_app_process", "AppService.start")
    reads(AppService._open_app_process, "_build_environment", "AppService._open_app_process")
    environment = serve_private.tab_environment(100, 30)  # (no service: it reads only debug)
    assert environment["TEXTUAL_DRIVER"] == "textual.drivers.web_driver:WebDriver"
    assert (environment["COLUMNS"], environment["ROWS"]) == ("100", "30")


def test_a_services_process_and_stdin_are_what_it_runs_and_writes_to() -> None:
    """``AppService._process`` and ``._stdin``: set by ``adopt``, read by ``run`` and ``stdin``."""
    service = serve_private.HookedService(
        "true",
        write_bytes=None,
        write_str=None,
        close=None,
        download_manager=None,  # type: ignore[arg-type]
    )
    assert member(service, "_process", SERVE) is None and member(service, "_stdin", SERVE) is None
    reads(AppService.run, "_process", "AppService.run")
    pipe = object()
    service._stdin = pipe  # type: ignore[assignment]
    assert service.stdin is pipe


def test_the_server_makes_its_app_and_each_tabs_service_by_name() -> None:
    """``Server._make_app()``, and ``handle_websocket`` making each tab's service from the module's
    global ``AppService``, which dvtui replaces with its own."""
    takes(member(Server, "_make_app", SERVE), ["self"], "Server._make_app", coroutine=True)
    serve_module = import_module("textual_serve.server")
    # (a ``dvtui web`` already run in this process has put its own subclass there)
    service = serve_module.AppService
    assert isinstance(service, type) and issubclass(service, AppService), (
        "textual_serve.server.AppService is not the service class"
    )
    reads(Server.handle_websocket, "AppService", "Server.handle_websocket")
