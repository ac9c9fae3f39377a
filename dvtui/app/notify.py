"""The desktop notification a terminal shows when it is the player's turn at a shared table, sent
through the terminal itself (no notification daemon is asked, so it works over ssh): OSC 9
(iTerm2, Windows Terminal, kitty, WezTerm) and OSC 777 (rxvt-unicode, foot, VTE terminals).
Terminals that know neither ignore both.

The table's name is outside text and a notification is written to the terminal as it is: a name is
made printable (no escape, no BEL, which would end the sequence early and let the rest drive the
terminal), loses the ``;`` that separates OSC 777's fields, and is bounded."""

from __future__ import annotations

from ..i18n import _
from ..printable import printable

MAX_NOTIFICATION_CHARS = 80
"""The longest body a notification carries (a notification is read at a glance)."""
TITLE = "Dolce Vita"
PAGE_TURN = "dvtui_turn"
"""The message that tells a browser tab's page whether it is this side's turn (``{"type":
"dvtui_turn", "turn": bool}``): ``dvtui web`` hands it to the page, which changes its title and
icon (dvtui/web/page/app_index.html)."""


def turn_notification(table: str) -> str:
    """The bytes (as text) that ask the terminal for a notification "your turn at table NAME"."""
    body = _plain(_("Your turn at table {table}").format(table=table))
    return f"\x1b]9;{TITLE}: {body}\x07\x1b]777;notify;{TITLE};{body}\x07"


def _plain(text: str) -> str:
    text = printable(text).replace(";", ",")
    if len(text) > MAX_NOTIFICATION_CHARS:
        text = text[: MAX_NOTIFICATION_CHARS - 1] + "…"
    return text


__all__ = ["MAX_NOTIFICATION_CHARS", "PAGE_TURN", "turn_notification"]
