"""A box in the middle of the dimmed screen under it: the base of every dialog (the help, the
branch's seat choice, leaving the set-up)."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
    """Its box is the widget with the class ``dialog``; each dialog sets its width."""

    DEFAULT_CSS = """
    Dialog {
        align: center middle;
        background: #000000 60%;
    }

    Dialog .dialog {
        height: auto;
        max-width: 100%;
        max-height: 100%;
        border: round $gold;
        background: #0b2219;
        padding: 0 1;
    }
    """
