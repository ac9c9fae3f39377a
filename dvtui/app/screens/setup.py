"""``dvtui new`` without ``--players``: choose 3 to 5 seats (a human by name or a bot by level),
their colours, who starts (R2.4) and, optionally, the seed of the deal. From the start menu's
lobby, the same screen opens a table at the table server: it also asks the table's name."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from ...bots import SAME_PLAYER, about
from ...describe import bot_level_name, color_name, default_bot_name
from ...engine import COLORS, MAX_NAME_CHARS, MAX_PLAYERS, MIN_PLAYERS, Seat, SeatError, check_seats
from ...i18n import N_, _
from ...play.face import GameSession
from ...play.seats import seat_message
from ...printable import printable
from ...store import SaveError
from ...tables.wire import is_table_name
from ..config import SetupChoice, SetupDefaults, save_azerty
from ..host import GameHost
from ..spoken import SpokenScreen
from ..theme import MUTED, seat_color
from ..widgets.faces import CHIP, styled
from ..widgets.footer import Footer
from .dialog import Dialog
from .lobby import TableOptions, parse_invitations, parse_move_time

HUMAN = "human"
LEVEL_HELP = N_("Bots, weakest first: random places any card anywhere · novice, casual · greedy takes what "
              "pays best this round · club · strong looks ahead to the end of the round and plays to win · "
              "master searches longest")  # fmt: skip
SETUP_LEVELS = ("random", "novice", "casual", "greedy", "club", "strong", "master")
"""The levels a seat offers, weakest first as the gauntlet measured them (docs/PLAYING.md, "The
ladder"; ``random`` is not measured and is below them all). ``expert`` is left out: it is ``strong``
under a ladder name, the same player, and two names for one player read as two strengths. Files and
the command line still take ``bot:expert``; a seat of it is shown as ``strong``."""
ALIASES = {"expert": "strong"}
"""Levels a seat shows under another name because they play the same moves (:data:`SETUP_LEVELS`)."""


def level_words(kind: str) -> str:
    """What the help line under the seats says while a seat of ``kind`` is being worked on: for a
    bot, its level's sentence and measured strength; for a person, what every level is."""
    if kind == HUMAN:
        return _(LEVEL_HELP)
    level = kind[4:]
    sentence, rating = about(level)
    if rating is None:
        return _("Bot: {level} · {sentence}").format(level=bot_level_name(level), sentence=sentence)
    if level in SAME_PLAYER:
        measured = _("strong's, being the same player")
    elif rating == 0:
        measured = _("the yardstick the others are rated against")
    else:
        measured = (_("{elo} Elo above strong") if rating > 0 else _("{elo} Elo below strong")).format(elo=abs(rating))
    return _("Bot: {level} · {sentence} · measured strength: {measured}").format(
        level=bot_level_name(level), sentence=sentence, measured=measured
    )


def kind_options() -> list[tuple[str, str]]:
    options = [(_("Human"), HUMAN)]
    for level in SETUP_LEVELS:
        options.append((_("Bot: {level}").format(level=bot_level_name(level)), f"bot:{level}"))
    return options


def color_options() -> list[tuple[Text, str]]:
    # only the swatch is in the colour: the name takes the label's, readable on the focused gold too
    return [(Text.assemble(("■ ", Style(color=seat_color(c))), color_name(c)), c) for c in COLORS]


class SeatRow(Horizontal):
    """One seat: human or bot (and which), a human's name, then its colour: who sits there first,
    in the order Tab goes through them."""

    DEFAULT_CSS = """
    SeatRow { height: 1; width: auto; margin: 0 0 1 0; }
    SeatRow > .seat-number { width: 4; }
    SeatRow > .seat-kind { width: 18; margin: 0 1 0 0; }
    SeatRow > .seat-name { width: 26; margin: 0 1 0 0; }
    SeatRow > .seat-color { width: 14; }
    """

    def __init__(self, index: int, seat: Seat) -> None:
        super().__init__(classes="seat-row")
        self.index = index
        self.seat = seat
        self.bot_name: str | None = None
        """The bot's name this row's name field shows while it is a bot (cleared when it becomes a
        human's, unlike a name the person typed)."""

    def compose(self) -> ComposeResult:
        seat = self.seat
        level = (seat.bot or "greedy").split("@")[0]
        kind = HUMAN if seat.kind == "human" else f"bot:{ALIASES.get(level, level)}"
        if kind not in dict((v, k) for k, v in kind_options()):
            kind = "bot:greedy"
        yield Label(f"{self.index + 1}.", classes="seat-number")
        yield Select(kind_options(), value=kind, allow_blank=False, compact=True, classes="seat-kind")
        yield Input(
            value=seat.name if seat.kind == "human" else "",
            placeholder=_("name"),
            max_length=MAX_NAME_CHARS,
            compact=True,
            classes="seat-name",
        )
        yield Select(color_options(), value=seat.color, allow_blank=False, compact=True, classes="seat-color")

    @property
    def kind(self) -> str:
        return str(self.query_one(".seat-kind", Select).value)

    @property
    def color(self) -> str:
        return str(self.query_one(".seat-color", Select).value)

    @property
    def name_input(self) -> Input:
        return self.query_one(".seat-name", Input)


BROWSER_KEYS = {"setup.add_seat": "ctrl+o", "setup.remove_seat": "ctrl+l"}
"""The set-up's keys in a browser tab, where Ctrl+N (a new window) never reaches the page and
Ctrl+R reloads it: Ctrl+O (one more seat) and Ctrl+L (one less), which the tab's terminal takes."""


class SetupScreen(SpokenScreen[None]):
    """Builds the seats, then asks ``create`` for the session (file created) and starts the game."""

    DEFAULT_CSS = """
    #setup-title {
        height: 1;
        margin: 0 0 1 0;
    }

    #setup-body {
        padding: 0 2;
    }

    #seats {
        height: auto;
        margin: 1 0 0 0;
    }

    #seat-buttons {
        height: 1;
        margin: 0 0 1 4;
    }

    #seat-buttons Button {
        margin: 0 2 0 0;
        min-width: 8;
    }

    #level-help {
        height: auto;
        margin: 0 0 1 0;
    }

    .setup-line {
        height: 1;
        margin: 0 0 1 0;
    }

    .setup-label {
        width: 16;
        color: $gold;
    }

    #first {
        width: 26;
    }

    #seed {
        width: 12;
    }

    #table-name {
        width: 34;
    }

    #move-time {
        width: 12;
    }

    #time-bank, #increment {
        width: 8;
    }

    #invite {
        width: 34;
    }

    #table-options Checkbox {
        margin: 0 2 0 0;
    }

    #table-options {
        height: 1;
        margin: 0 0 1 0;
    }

    #table-line {
        margin: 1 0 0 0;
    }

    .setup-note {
        color: #7f9c8e;
    }

    #setup-error {
        height: auto;
        margin: 0 0 1 0;
    }

    #start {
        margin: 0 0 0 16;
    }

    /* a compact dropdown only tints itself when focused: too faint to see where the keyboard is */
    SetupScreen Select:focus > SelectCurrent {
        background: $gold;
        text-style: bold;
    }

    SetupScreen Select:focus > SelectCurrent Static#label, SetupScreen Select:focus > SelectCurrent .arrow {
        color: #1a1a1a;
    }
    """

    AUTO_FOCUS = ".seat-name"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", N_("start"), priority=True),
        Binding("ctrl+n", "add_seat", N_("add seat"), id="setup.add_seat"),
        Binding("ctrl+r", "remove_seat", N_("remove seat"), id="setup.remove_seat"),
        Binding("escape", "leave", N_("leave"), key_display="esc"),
    ]

    def __init__(self, defaults: SetupDefaults, create: Callable[[SetupChoice], GameSession],
                 start: Callable[[GameSession], None], leave: Callable[[], object] | None = None, *,
                 open_table: Callable[[str, SetupChoice, TableOptions], Awaitable[GameSession]] | None = None,
                 ) -> None:  # fmt: skip
        super().__init__(id="setup")
        self.defaults = defaults
        self.create = create
        self.start = start
        self.leave = leave
        """What leaving does once confirmed (default: quit the app)."""
        self.open_table = open_table
        """Opens a table at the table server (its name, the seats, its options) and sits there, in
        place of ``create``: the screen then asks the table's name and options too (what ``dvtui
        new --table`` takes). ValueError says why not."""
        self._opening = False
        self._error_shown = False
        """An error is on screen: each change checks the form again, and a fixed one goes."""
        self._row: SeatRow | None = None
        """The seat last worked on: the one "− seat" removes."""

    def compose(self) -> ComposeResult:
        title = styled(" DOLCE VITA ", CHIP)
        said = _("a new table at the table server") if self.open_table else _("a new game")
        title.append(f"  {said}", style=Style(bold=True))
        yield Static(title, id="setup-title")
        with VerticalScroll(id="setup-body", can_focus=False):  # its fields take the focus, not the body
            yield Static(
                Text(_("Seats, clockwise (3 to 5): a human by name, or a bot by level."), style=Style(color=MUTED)),
                classes="setup-help",
            )
            if self.open_table is not None:
                with Horizontal(classes="setup-line", id="table-line"):
                    yield Label(_("Table name") + " ", classes="setup-label")
                    yield Input(placeholder=_("e.g. friday"), compact=True, id="table-name", max_length=32,
                                restrict=r"[A-Za-z0-9_-]*")  # fmt: skip
                    yield Label("  " + _("listed in menus"), classes="setup-note")
            with Vertical(id="seats"):
                for i, seat in enumerate(self.defaults.initial_seats()):
                    yield SeatRow(i, seat)
            with Horizontal(id="seat-buttons"):
                yield Button(_("+ seat"), id="add-seat", compact=True)
                yield Button(_("− seat"), id="remove-seat", compact=True)
                yield Label("  " + _("removes the seat you were on"), classes="setup-note")
            yield Static(Text(_(LEVEL_HELP), style=Style(color=MUTED)), id="level-help")
            with Horizontal(classes="setup-line"):
                yield Label(_("First player") + " ", classes="setup-label")
                seats = self.defaults.initial_seats()
                yield Select(
                    [(Text(printable(f"{i + 1}. {s.name}")), i) for i, s in enumerate(seats)],
                    allow_blank=False,
                    compact=True,
                    id="first",
                )
            with Horizontal(classes="setup-line"):
                yield Label(_("Seed") + " ", classes="setup-label")
                yield Input(
                    value="" if self.defaults.seed is None else str(self.defaults.seed),
                    placeholder=_("random"),
                    compact=True,
                    id="seed",
                    restrict=r"[0-9]*",
                    max_length=18,
                )
                yield Label("  " + _("same seed, same deal"), classes="setup-note")
            with Horizontal(classes="setup-line"):
                yield Label(_("Keyboard") + " ", classes="setup-label")
                yield Checkbox(_("AZERTY: & é \" ' ( - pick cards 1-6"), value=cast(GameHost, self.app).azerty,
                               compact=True, id="azerty")  # fmt: skip
            if self.open_table is not None:
                yield from self._table_fields()
            yield Static(id="setup-error")
            yield Button(_("Open the table") if self.open_table else _("Start the game"), id="start", variant="success",
                         compact=True)  # fmt: skip
        yield Footer(compact=True)

    def _table_fields(self) -> ComposeResult:
        """A table's options, as ``dvtui new --table`` takes them: the move clock, seats kept for
        accounts, hints, dealing at once instead of a waiting room, and a rated table."""
        with Horizontal(classes="setup-line"):
            yield Label(_("Move time") + " ", classes="setup-label")
            yield Input(placeholder=_("none"), compact=True, id="move-time", max_length=8, restrict=r"[0-9smhd ]*")
            yield Label("  " + _("45s, 2m or 1h; then a bot plays the turn"), classes="setup-note")
        with Horizontal(classes="setup-line"):
            yield Label(_("Time bank") + " ", classes="setup-label")
            yield Input(placeholder=_("none"), compact=True, id="time-bank", max_length=8, restrict=r"[0-9smhd ]*")
            yield Label(" + ", classes="setup-note")
            yield Input(placeholder="0s", compact=True, id="increment", max_length=8, restrict=r"[0-9smhd ]*")
            yield Label("  " + _("per move; spent after the move time"), classes="setup-note")
        with Horizontal(classes="setup-line"):
            yield Label(_("Invitations") + " ", classes="setup-label")
            yield Input(placeholder=_("e.g. Bob=bob, 3=web:cy"), compact=True, id="invite", max_length=400)
            yield Label("  " + _("SEAT=USER"), classes="setup-note")
        with Horizontal(id="table-options"):
            yield Label("", classes="setup-label")
            yield Checkbox(_("hints"), value=True, compact=True, id="hints")
            yield Checkbox(_("start now, no waiting room"), value=False, compact=True, id="start-now")
            yield Checkbox(_("rated"), value=False, compact=True, id="rated")

    def on_mount(self) -> None:
        if cast(GameHost, self.app).in_browser:
            self.app.update_keymap(BROWSER_KEYS)
        self._refresh_rows(first=self.defaults.first)
        if self.open_table is not None:  # the first field of the form, above the seats
            self.query_one("#table-name", Input).focus()

    # -- keeping the form consistent ------------------------------------------------------------

    def rows(self) -> list[SeatRow]:
        return list(self.query(SeatRow))

    def seats(self) -> list[Seat]:
        """The seats as the form shows them; bots named Bot 1, Bot 2... in seat order (as on the
        command line)."""
        out: list[Seat] = []
        bots = 0
        for row in self.rows():
            if row.kind == HUMAN:
                out.append(Seat(name=row.name_input.value.strip(), kind="human", color=row.color))
            else:
                bots += 1
                out.append(Seat(name=default_bot_name(bots), kind="bot", color=row.color, bot=row.kind[4:]))
        return out

    def _refresh_rows(self, first: int | None = None) -> None:
        seats = self.seats()
        for row, seat in zip(self.rows(), seats, strict=True):
            name = row.name_input
            is_bot = seat.kind == "bot"
            name.disabled = is_bot
            if is_bot:
                name.value = row.bot_name = seat.name
            elif row.bot_name is not None:
                if name.value == row.bot_name:
                    name.value = ""
                row.bot_name = None
        select = self.query_one("#first", Select)
        keep = select.value if first is None else first
        # a name is shown as typed, never read as markup (Text, not a str prompt)
        unnamed = _("(no name)")
        options = [(Text(printable(f"{i + 1}. {s.name or unnamed}")), i) for i, s in enumerate(seats)]
        keep = keep if isinstance(keep, int) and 0 <= keep < len(seats) else 0
        with select.prevent(Select.Changed):
            select.set_options(options)
            # the shown label follows value changes only: step off and back to redraw the new name
            select.value = (keep + 1) % len(seats)
            select.value = keep
        self.query_one("#add-seat", Button).disabled = len(seats) >= MAX_PLAYERS
        self.query_one("#remove-seat", Button).disabled = len(seats) <= MIN_PLAYERS

    @on(Select.Changed, ".seat-kind")
    @on(Select.Changed, ".seat-color")
    def _seat_changed(self, event: Select.Changed) -> None:
        self._refresh_rows()
        row = next((node for node in event.select.ancestors if isinstance(node, SeatRow)), None)
        if row is not None:
            self._show_level(row)

    def _show_level(self, row: SeatRow) -> None:
        """The help line speaks of the level of the seat being worked on (see :func:`level_words`)."""
        self.query_one("#level-help", Static).update(Text(level_words(row.kind), style=Style(color=MUTED)))

    @on(Input.Changed, ".seat-name")
    def _name_changed(self) -> None:
        self._refresh_rows()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        row = next((node for node in event.widget.ancestors_with_self if isinstance(node, SeatRow)), None)
        if row is not None:
            self._row = row
            self._show_level(row)

    @on(Input.Submitted, ".seat-name")
    @on(Input.Submitted, "#table-name")
    def _name_entered(self) -> None:
        self.focus_next()

    @on(Checkbox.Changed, "#azerty")
    def _keyboard(self, event: Checkbox.Changed) -> None:
        """The AZERTY option, on at once and kept for next time (on by default for French)."""
        cast(GameHost, self.app).use_azerty(event.value)
        with contextlib.suppress(OSError):  # not kept, still on for this game
            save_azerty(event.value)

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _recheck(self) -> None:
        """With an error on screen, any change checks the form again: the error goes once it is
        fixed (or says what is wrong now), instead of staying until the next try."""
        if not self._error_shown or self._opening:
            return
        try:
            choice = self.validate()
            if self.open_table is not None:
                self._table_choice(choice)
        except ValueError as e:
            self._error(str(e))
            return
        self._error("")

    @on(Button.Pressed, "#add-seat")
    def action_add_seat(self) -> None:
        rows = self.rows()
        if len(rows) >= MAX_PLAYERS:
            said = _("{most} seats at most: Dolce Vita is for {least} to {most} players (R3)")
            self.notify(said.format(least=MIN_PLAYERS, most=MAX_PLAYERS), severity="warning", timeout=4)
            return
        taken = {row.color for row in rows}
        color = next(c for c in COLORS if c not in taken)
        self.query_one("#seats").mount(SeatRow(len(rows), Seat(name="Bot", kind="bot", color=color, bot="greedy")))
        self.call_after_refresh(self._refresh_rows)

    @on(Button.Pressed, "#remove-seat")
    async def action_remove_seat(self) -> None:
        """Remove the seat last worked on (the last seat when none was)."""
        rows = self.rows()
        if len(rows) <= MIN_PLAYERS:
            said = _("{least} seats at least: Dolce Vita is for {least} to {most} players (R3)")
            self.notify(said.format(least=MIN_PLAYERS, most=MAX_PLAYERS), severity="warning", timeout=4)
            return
        row = self._row if self._row in rows else rows[-1]
        self._row = None
        await row.remove()
        for i, rest in enumerate(self.rows()):  # renumbered: seat numbers are positions at the table
            rest.index = i
            rest.query_one(".seat-number", Label).update(f"{i + 1}.")
        self._refresh_rows()

    def action_leave(self) -> None:
        """Esc: leave the set-up, once confirmed (a second Esc in the question stays)."""

        def answered(leave: bool | None) -> None:
            if leave:
                if self.leave is not None:
                    self.leave()
                else:
                    self.app.exit()

        self.app.push_screen(LeaveSetup(), answered)

    # -- starting ------------------------------------------------------------------------------

    def validate(self) -> SetupChoice:
        """The choice, or ValueError saying (in one line) what to fix."""
        seats = self.seats()
        try:
            check_seats(seats)  # the rules a game file's seats pass, so the game can be opened again
        except SeatError as e:
            raise ValueError(seat_message(e, e.seat)) from None
        colors: set[str] = set()
        for i, seat in enumerate(seats):
            if seat.color in colors:
                said = _("seat {seat}: two seats are {colour}; each seat has its own colour")
                raise ValueError(said.format(seat=i + 1, colour=color_name(seat.color)))
            colors.add(seat.color)
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = int(seed_text) if seed_text else None
        first = self.query_one("#first", Select).value
        return SetupChoice(seats, first if isinstance(first, int) else 0, seed)

    def _table_choice(self, choice: SetupChoice) -> tuple[str, TableOptions]:
        """The table's name and options, or ValueError saying (in one line) what to fix."""
        name = self.query_one("#table-name", Input).value.strip()
        if not is_table_name(name):
            raise ValueError(_("a table's name is 1 to 32 letters (a-z, A-Z), digits (0-9), '-' or '_', "
                               "starting with a letter or digit"))  # fmt: skip
        try:
            move_time = parse_move_time(self.query_one("#move-time", Input).value)
        except ValueError as e:
            raise ValueError(_("move time: {error}").format(error=e)) from None
        time_bank, increment = self._time_bank(move_time)
        invite = parse_invitations(self.query_one("#invite", Input).value, choice.seats)
        hints = self.query_one("#hints", Checkbox).value
        wait = not self.query_one("#start-now", Checkbox).value
        rated = self.query_one("#rated", Checkbox).value
        return name, TableOptions(move_time=move_time, invite=invite, hints=hints, wait=wait, time_bank=time_bank,
                                  increment=increment, rated=rated)  # fmt: skip

    def _time_bank(self, move_time: int | None) -> tuple[int | None, int]:
        """The time bank and its increment (seconds; None, 0: none), or ValueError: as
        ``--time-bank`` and ``--increment``, they go with a move time."""
        given = [self.query_one(f"#{key}", Input).value.strip() for key in ("time-bank", "increment")]
        if not any(given):
            return None, 0
        if move_time is None:
            raise ValueError(_("a time bank is spent after the move time: give a move time too"))
        try:
            bank, increment = (parse_move_time(text) or 0 for text in given)
        except ValueError as e:
            raise ValueError(_("time bank: {error}").format(error=e)) from None
        return bank, increment

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            choice = self.validate()
            if self.open_table is not None:
                name, options = self._table_choice(choice)
                if not self._opening:
                    self._opening = True
                    self._error("")
                    self._open(name, choice, options)
                return
            session = self.create(choice)
        except (ValueError, SaveError) as e:
            self._error(str(e))
            return
        self._error("")
        self.start(session)

    @work(exclusive=True, group="open-table")
    async def _open(self, name: str, choice: SetupChoice, options: TableOptions) -> None:
        """Open table ``name`` and sit there; the table replaces this screen."""
        assert self.open_table is not None
        try:
            session = await self.open_table(name, choice, options)
        except ValueError as e:
            self._error(str(e))
            return
        finally:
            self._opening = False
        self.start(session)

    def _error(self, message: str) -> None:
        self._error_shown = bool(message)
        self.query_one("#setup-error", Static).update(
            Text(printable(f"✗ {message}"), style=Style(color="#ff6b6b", bold=True)) if message else ""
        )


class LeaveSetup(Dialog[bool]):
    """Esc on the set-up screen: leave it (and what was chosen), or stay."""

    DEFAULT_CSS = """
    #leave-box {
        width: 50;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,o", "answer(True)", N_("leave"), key_display="y"),
        Binding("n,escape", "answer(False)", N_("stay"), key_display="n/esc"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-box", classes="dialog"):
            yield Static(Text(_("Leave the set-up? No game has been started."), style=Style(bold=True)))
            yield Static(Text(_("y: leave · n or esc: stay"), style=Style(color=MUTED)))
        yield Footer(compact=True)

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
