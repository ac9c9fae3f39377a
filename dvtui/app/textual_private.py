"""Every private name of Textual that dvtui, its tests and its benches build on, and only those, in
one place. Textual is pinned (pyproject.toml); tests/test_privates.py names each of them and checks
its shape, so an upgrade that moves one fails there, in one place, rather than in a screen.

- ``textual.widgets._footer.FooterKey``: the footer's key, not exported. The spare (a dvtui started
  before its browser tab, ``App.prepare_start``) parses its default CSS ahead; tests find the
  footer's keys by it.
- ``textual.widgets._toast.Toast``, ``textual.widgets._select.SelectCurrent``: not exported either;
  tests find a toast and a select's shown value by them.
- ``DOMNode._get_default_css()``: a widget's default CSS as the stylesheet takes it. The spare
  parses the start menu's styles before its tab opens; Textual parses them only at a mount.
- ``App._notifications``, ``App._unnotify(notification, refresh=)``: the notifications up, and the
  one way to drop one (Textual has none public): a new notice replaces the one it repeats. Tests
  read them (an app under Pilot mounts no toasts).
- ``Screen._compositor``: the screen as drawn (``render_strips``, ``get_style_at``); tests read it.
- ``DOMNode._bindings``: a node's whole binding map (``active_bindings`` has the active keys only);
  a test matches every key to its line in the help.
- ``App._driver``: where a key arrives as from the terminal; the benches time a key from there. In
  a browser tab it is Textual's web driver, whose ``write_meta`` sends textual-serve a message
  beside the screen (the turn's, which the page shows in its title and icon: :func:`tell_page`).
- ``Pilot._wait_for_screen()``, ``Screen._on_timer_update()``: what ``Pilot.pause`` does after its
  idle wait; a test that steps hundreds of times settles each frame with them alone.
- ``MessagePump._pending_message``: the message a node has taken off its queue to see whether the
  one it is handling supersedes it; its queue no longer counts it while that one is handled (idle
  handlers included, which may let other tasks run). :func:`messages_waiting` counts it.
- ``App._check_resize()``: what the short timer an app starts at a terminal's resize calls, to hand
  the new size to its screens (a terminal reports a resize as a burst of sizes); a test that
  resizes hundreds of times calls it at once (:func:`hand_on_size`) rather than wait for it.
- ``Widget._scroll_update(virtual_size)``: what a layout does to a scrolling widget whose virtual
  size changed (its scrollbars shown or hidden, their extent, the scroll kept in range).
  :func:`resize_contents` calls it alone when the widget's own region does not depend on what it
  holds: setting ``virtual_size`` lays the whole screen out again, twice.
- ``textual._wrap.re_chunk`` and Rich's ``rich._wrap.re_word``: the patterns that cut a line into
  the pieces Textual and Rich wrap between. Both take any Unicode whitespace for a gap, the no-break
  spaces included, so ``3 400 000`` or ``gagné !`` could be cut at a space that exists to forbid
  it; :func:`keep_no_break_spaces` gives them patterns that count those spaces as part of a word.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import rich._wrap
import textual._wrap
from textual._compositor import Compositor
from textual.app import App
from textual.binding import BindingsMap
from textual.css.types import CSSLocation
from textual.dom import DOMNode
from textual.driver import Driver
from textual.geometry import Size
from textual.message_pump import MessagePump
from textual.notifications import Notification
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets._footer import FooterKey
from textual.widgets._select import SelectCurrent
from textual.widgets._toast import Toast

if TYPE_CHECKING:  # (Pilot is the tests': the app does not import it)
    from textual.pilot import Pilot

__all__ = [
    "FooterKey",
    "SelectCurrent",
    "Toast",
    "bindings",
    "compositor",
    "default_css",
    "driver",
    "hand_on_size",
    "keep_no_break_spaces",
    "messages_waiting",
    "notifications",
    "resize_contents",
    "settle",
    "tell_page",
    "unnotify",
]


def default_css(kind: type[DOMNode]) -> list[tuple[CSSLocation, str, int, str]]:
    """``kind``'s default CSS and its bases', as ``Stylesheet.add_source`` takes each: (where it
    was read from, the CSS, its tie breaker, its scope). It comes from the class alone, so an
    instance not yet initialised will do."""
    return kind.__new__(kind)._get_default_css()


def notifications(app: App[Any]) -> list[Notification]:
    """The notifications ``app`` has up, oldest first."""
    return list(app._notifications)


def unnotify(app: App[Any], notification: Notification) -> None:
    """Drop ``notification`` from ``app``'s, without drawing them again (the caller is about to)."""
    app._unnotify(notification, refresh=False)


def compositor(screen: Screen[Any]) -> Compositor:
    """What draws ``screen``: its strips as they are on the screen, the style of a cell."""
    return screen._compositor


def bindings(node: DOMNode) -> BindingsMap:
    """Every binding of ``node``, active or not."""
    return node._bindings


def driver(app: App[Any]) -> Driver:
    """The driver of a running ``app``: a key sent there arrives as the terminal's would."""
    assert app._driver is not None, "the app is not running"
    return app._driver


def tell_page(app: App[Any], message: dict[str, object]) -> bool:
    """Send ``message`` to the page of the browser tab ``app`` runs in (textual-serve's service
    hands it on); False when the app runs elsewhere (a terminal, a test), where nobody hears it."""
    from textual.drivers.web_driver import WebDriver

    web = app._driver
    if not isinstance(web, WebDriver):
        return False
    web.write_meta(message)
    return True


async def settle(pilot: Pilot[Any]) -> None:
    """Let the screen process what a change posted and compose its next frame, without Pilot's
    idle wait (tens of milliseconds a step)."""
    await pilot._wait_for_screen()
    pilot.app.screen._on_timer_update()


def hand_on_size(app: App[Any]) -> None:
    """Hand the size the terminal last reported to ``app``'s screens now, as the timer its resize
    started will (then it has nothing left to hand on)."""
    app._check_resize()


def messages_waiting(node: MessagePump) -> int:
    """The messages ``node`` has yet to handle: those in its queue and the one it took off to look
    ahead. A test that waits until no message waits anywhere must count that one: a message posted
    while ``node`` handles another (a worker's news told on) can sit there, out of the queue, while
    ``node``'s idle handlers let the test run."""
    return node.message_queue_size + (node._pending_message is not None)


def resize_contents(view: Widget, size: Size) -> None:
    """Give the scrolling ``view`` the virtual size ``size`` (the lines it holds) without laying the
    screen out: only for a view whose region its styles fix (``1fr``), whatever it holds. Its
    scrollbar's extent and the scroll's range follow; a scrollbar that appears or goes asks for the
    layout it needs itself (``show_vertical_scrollbar`` is a reactive that lays out)."""
    view.set_reactive(Widget.virtual_size, size)
    view._scroll_update(size)


NO_BREAK_SPACES = "\u00a0\u2007\u202f"
"""The no-break space, the figure space and the narrow no-break space: whitespace to Python, but
spaces a line must not be cut at (French writes them in amounts and before « : ; ! ? »)."""
_GAP = f"[^\\S{NO_BREAK_SPACES}]"
_WORD = f"[\\S{NO_BREAK_SPACES}]"


def keep_no_break_spaces() -> None:
    """Make Textual and Rich wrap lines only at spaces that allow a break: their patterns, with the
    no-break spaces counted as part of a word (the same patterns otherwise, so nothing else moves)."""
    textual._wrap.re_chunk = re.compile(f"{_WORD}+{_GAP}*|{_GAP}+")
    rich._wrap.re_word = re.compile(f"{_GAP}*{_WORD}+{_GAP}*")
