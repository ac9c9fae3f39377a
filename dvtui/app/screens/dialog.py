"""A box in the middle of the dimmed screen under it: the base of every dialog (the help, the
branch's seat choice, leaving the set-up, leaving a shared table to play from here, resigning a
seat or ending a table)."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...i18n import N_, _
from ..spoken import SpokenScreen, filled
from ..theme import MUTED
from ..widgets.footer import Footer

ResultT = TypeVar("ResultT")


class Dialog(SpokenScreen[ResultT], ModalScreen[ResultT]):
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


class LeaveForBranch(Dialog[bool]):
    """``b`` at a shared table's seat: play from here means leaving the table (the branch is a
    game of one's own); ``y`` leaves, ``n`` or Escape stays."""

    DEFAULT_CSS = """
    #leave-box {
        width: 64;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,o", "answer(True)", N_("leave and play from here"), key_display="y"),
        Binding("n,escape", "answer(False)", N_("stay"), key_display="n/esc"),
    ]

    def __init__(self, table: str, seat: str) -> None:
        super().__init__()
        self.table = table
        self.seat = seat

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-box", classes="dialog"):
            asked = _("Leave table {table} to play from here?").format(table=self.table)
            yield Static(Text(asked, style=Style(bold=True)))
            yield Static(Text(_(
                "The branch is a game of your own, in a new file: the table is not changed. {name}'s "
                "seat stays yours, away meanwhile (the others may let a bot stand in for it)."
            ).format(name=self.seat)))  # fmt: skip
            command = Text(f"dvtui join {self.table}", style=Style(bold=True))
            yield Static(filled(_("{command} brings you back where the game is."), command=command))
            yield Static(Text(_("y: leave and play from here · n or esc: stay"), style=Style(color=MUTED)))
        yield Footer(compact=True)

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


class Confirm(Dialog[bool]):
    """A grave step asked first (resigning a seat, ending a table): ``y`` does it, ``n`` or Escape
    does not. ``question`` in bold, then what it does, then the keys with ``yes`` (what ``y`` does)."""

    DEFAULT_CSS = """
    #confirm-box {
        width: 64;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,o", "answer(True)", N_("yes"), key_display="y"),
        Binding("n,escape", "answer(False)", N_("no"), key_display="n/esc"),
    ]

    def __init__(self, question: str, explained: str, yes: str) -> None:
        super().__init__()
        self.question = question
        self.explained = explained
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog"):
            yield Static(Text(self.question, style=Style(bold=True)))
            yield Static(Text(self.explained))
            yield Static(Text(_("y: {yes} · n or esc: play on").format(yes=self.yes), style=Style(color=MUTED)))
        yield Footer(compact=True)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class SayLine(Dialog[str | None]):
    """``m`` at a shared table: one line to everyone there; Enter says it, Escape says nothing.
    What is typed is plain text (the table shows it so, with what does not print escaped)."""

    DEFAULT_CSS = """
    #say-box {
        width: 72;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("say nothing"), key_display="esc")]

    def __init__(self, table: str, max_chars: int) -> None:
        super().__init__()
        self.table = table
        self.max_chars = max_chars

    def compose(self) -> ComposeResult:
        with Vertical(id="say-box", classes="dialog"):
            yield Static(Text(_("Say to everyone at {table} (Enter says it):").format(table=self.table)))
            yield Input(max_length=self.max_chars, id="say-text")
        yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
