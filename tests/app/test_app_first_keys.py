"""Keys typed before the first screen can take them are kept and handed over in order; a terminal's
Enter typed before dvtui took the terminal over (a line feed by then) is handed over as Enter. (The
whole way, keys sent the moment a browser tab's socket opens: tests/web/test_web_keys.py.)"""

from __future__ import annotations

from textual import events

from dvtui.app.first_keys import FirstKeys


def test_keys_are_kept_until_released_then_handed_over_in_order_and_no_longer_kept() -> None:
    keys = FirstKeys()
    typed = [events.Key("down", None), events.Paste("Ana"), events.Key("a", "a")]
    assert all(keys.hold(event) for event in typed)
    assert not keys.hold(events.Resize.from_dimensions((80, 24), None))  # only what a person types
    assert keys.release() == typed
    assert not keys.hold(events.Key("up", None)) and keys.release() == []


def test_a_key_textual_forwards_is_never_kept() -> None:
    keys = FirstKeys()
    forwarded = events.Key("down", None)
    forwarded._set_forwarded()  # (as Textual marks a key it hands to a widget)
    assert forwarded.is_forwarded and not keys.hold(forwarded)


def test_an_enter_the_terminal_turned_into_a_line_feed_is_handed_over_as_enter() -> None:
    keys = FirstKeys()
    keys.hold(events.Key("down", None))
    keys.hold(events.Key("ctrl+j", "\n"))  # Enter typed ahead, through the line discipline's ICRNL
    down, enter = keys.release()
    assert (down.key, enter.key, enter.character) == ("down", "enter", "\r")
