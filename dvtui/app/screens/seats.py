"""Choosing one's seat at a shared table, on screen: the way in of a browser tab (``dvtui web
--table NAME``), where nobody types ``--as``. Each seat says who is there: the screen watches the
table while one chooses and redraws on each presence the server pushes. A seat somebody is
connected to cannot be chosen, since taking it would push them out (every tab of ``dvtui web`` is
the same account to the server, or, behind a login proxy, the same person in another tab). A free
seat, or one's own seat left by a closed tab, is taken; or one watches.

Watching to choose makes one a spectator like any other: the table shows one more watching, and
its bots play on meanwhile (bots move while somebody is at a table). That is what the person is
doing, looking at the table, and it keeps the protocol as it is; this screen leaves itself out of
the count it shows."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...describe import bot_level_name
from ...i18n import N_, _, ngettext
from ...printable import printable
from ...store import user_name
from ...tables import (
    Diverged,
    Dropped,
    Refused,
    RemoteSession,
    ServerPlace,
    TableClient,
    TableInfo,
    Unreachable,
)
from ...tables.seats import pick_seat
from ...tables.wire import shown_person
from ..host import GameHost
from ..spoken import SpokenScreen
from ..theme import ERROR, MUTED
from ..widgets.faces import CHIP, styled
from ..widgets.footer import Footer

WATCH = "watch"


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """A table whose seat is chosen on screen: where its server is, its name, and the person at
    this screen (the seat named like them is offered first)."""

    place: ServerPlace
    table: str
    person: str
    user: str | None = None
    """The person this account vouches for at the table (a login proxy's user), who then owns the
    seat taken here; None: the account itself."""

    @property
    def owner(self) -> str:
        """Who the table says owns a seat taken from here (``SeatState.user``)."""
        return user_name(os.getuid()) if self.user is None else shown_person(self.user)


def seat_label(info: TableInfo, seat: int, account: str) -> tuple[str, bool]:
    """A seat's line in the list and whether it can be taken from here (``account``: who the
    server knows this dvtui as, :attr:`SeatChoice.owner`)."""
    state = info.seats[seat]
    name = state.name
    if state.kind != "human":
        return _("{name}: a bot plays it").format(name=name), False
    if state.state == "connected":
        alone = state.user in (None, state.name)  # the person is named when not the seat's name
        if state.bot is not None:
            said = (
                _("{name}: here, a {level} bot client playing")
                if alone
                else _("{name}: here ({person}), a {level} bot client playing")
            )
        else:
            said = _("{name}: here, playing") if alone else _("{name}: here ({person}), playing")
        return said.format(name=name, person=state.user, level=bot_level_name(state.bot or "")), False
    if state.state == "free" and state.kept_for not in (None, account):
        return _("{name}: kept for {person}").format(name=name, person=state.kept_for), False
    if state.state == "free":
        return _("{name}: free, take this seat").format(name=name), True
    if state.user == account:  # away: its owner's connection dropped (a closed tab, say)
        return _("{name}: away, take it back").format(name=name), True
    return _("{name}: away, the seat of {person}").format(name=name, person=state.user), False


def table_summary(info: TableInfo, *, watching: bool = False) -> str:
    """Where the game is and how many watch it (``watching``: this screen is one of them, not
    counted)."""
    if info.over:
        where = _("the game is over")
    elif info.waiting:  # nobody plays yet: no round, nobody to play
        awaited = [s.name for s in info.seats if s.state == "free" and s.kind == "human"]
        where = _("waiting room, for {names}").format(names=", ".join(awaited)) if awaited else _("waiting room")
    else:
        who = info.seats[info.to_move].name if info.to_move is not None else "?"
        where = _("round {round} of {rounds}, {name} to play").format(round=info.round, rounds=info.rounds, name=who)
    others = info.spectators - watching
    if others <= 0:
        return where
    return f"{where} · " + ngettext("{n} watching", "{n} watching", others).format(n=others)


def followed(client: TableClient) -> TableInfo | None:
    """The table as ``client`` (watching it) has it: None until its game and its first presence
    have come."""
    game = client.game
    if game is None or not client.seats:
        return None
    return TableInfo(
        table=client.table, seats=client.seats, round=game.round, rounds=game.rounds,
        to_move=None if game.over else game.to_move, over=game.over, spectators=client.spectators, hints=client.hints,
        waiting=client.waiting,
    )  # fmt: skip


class SeatScreen(SpokenScreen[None]):
    """The seats of ``choice.table`` with who is at each; Enter takes the highlighted one."""

    DEFAULT_CSS = """
    #seats-body {
        padding: 1 2;
        height: auto;
    }

    #seats-choice {
        height: auto;
        max-height: 9;
        border: none;
        margin: 1 0;
    }

    #seats-error {
        height: auto;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", N_("leave")),
        Binding("escape", "back", N_("back"), key_display="esc"),
    ]

    def __init__(self, choice: SeatChoice, *, back: bool = False) -> None:
        super().__init__(id="seats")
        self.choice = choice
        self.back = back
        """Opened from the start menu: Esc goes back to it."""
        self.info: TableInfo | None = None
        self.account = choice.owner
        self.joining = False
        self.offer: str | None = None
        """The option last offered (highlighted by the screen, not by the person)."""
        self._redraw_due = False

    def compose(self) -> ComposeResult:
        title = styled(" DOLCE VITA ", CHIP)
        title.append(
            "  " + _("table {table}: choose your seat").format(table=printable(self.choice.table)),
            style=Style(bold=True),
        )
        with Vertical(id="seats-body"):
            yield Static(title)
            yield Static(Text(_("asking the table server who is there…"), style=Style(color=MUTED)), id="seats-table")
            yield OptionList(id="seats-choice")
            yield Static(id="seats-error")
            yield Static(
                Text(
                    _("↑↓ then ⏎ · the same as: dvtui join TABLE --as SEAT, or dvtui watch TABLE"),
                    style=Style(color=MUTED),
                )
            )
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.follow()

    @work(exclusive=True, group="seats")
    async def follow(self) -> None:
        """Watch the table (on the app's loop) and redraw as the server pushes who is there and
        each move; the client reconnects by itself after a drop (a server restarting)."""
        client = TableClient(self.choice.place, self.choice.table, watch=True, user=self.choice.user)
        try:
            await client.connect()
            async for update in client.updates():
                if update.status == "reconnecting":
                    self._lost(_("the table server went away: reconnecting (q leaves)"))
                elif update.presence or update.events or update.status == "connected":
                    self._redraw_soon(client)
        except Refused as e:
            if e.error.code == "no_table":
                said = _("table {table} is not at the table server: there is no seat to take (q leaves)")
                self._lost(said.format(table=self.choice.table))
            else:
                self._lost(_("{error} (q leaves)").format(error=e))
        except (Unreachable, Dropped, Diverged, OSError) as e:
            self._lost(_("{error} (q leaves)").format(error=e))
        finally:
            await client.close()

    def _redraw_soon(self, client: TableClient) -> None:
        """Redraw once the updates that came together are in (a game's lines come one by one)."""
        if not self._redraw_due:
            self._redraw_due = True
            self.call_after_refresh(self._redraw, client)

    def _redraw(self, client: TableClient) -> None:
        self._redraw_due = False
        info = followed(client)
        if info is not None and not self.joining:
            self._show(info)

    def _lost(self, why: str) -> None:
        """The table cannot be read (``why``): said where its summary was, and no seat is offered,
        as none could be taken; a later reading that finds it offers them again."""
        self.info = None
        self.offer = None
        self.query_one("#seats-table", Static).update(Text(f"✗ {printable(why)}", style=Style(color=ERROR, bold=True)))
        self.query_one(OptionList).clear_options()
        self._error("")

    def _show(self, info: TableInfo) -> None:
        first = self.info is None
        self.info = info
        self.query_one("#seats-table", Static).update(Text(printable(table_summary(info, watching=True))))
        options = self.query_one(OptionList)
        kept = options.highlighted_option.id if options.highlighted_option is not None else None
        choices = []
        for seat in range(len(info.seats)):
            label, free = seat_label(info, seat, self.account)
            choices.append(Option(Text(printable(label)), id=f"seat-{seat}", disabled=not free))
        choices.append(Option(_("Watch the table"), id=WATCH))
        options.clear_options()
        options.add_options(choices)
        # the offer follows the table (a reloaded tab's old connection goes a moment later) until
        # the person moves the highlight themselves
        enabled = [o.id for o in choices if not o.disabled]
        wanted = kept if not first and kept != self.offer and kept in enabled else self._offered(info, enabled)
        index = next(i for i, o in enumerate(choices) if o.id == wanted)
        options.highlighted = index
        self.offer = wanted

    def _offered(self, info: TableInfo, enabled: list[str | None]) -> str | None:
        """The option offered first: the seat ``dvtui join`` would take (:func:`pick_seat`), else
        the first free one (offered only: the person chooses), else watching."""
        picked = pick_seat(info.seats, self.account, self.choice.person)
        return f"seat-{picked}" if picked is not None else enabled[0]

    @on(OptionList.OptionSelected, "#seats-choice")
    def _chosen(self, message: OptionList.OptionSelected) -> None:
        if self.joining:
            return
        choice = message.option.id
        seat = None if choice == WATCH else int(str(choice).removeprefix("seat-"))
        self.joining = True
        self.workers.cancel_group(self, "seats")  # this screen's watching ends: the table is joined anew
        self._error("")
        self.query_one("#seats-table", Static).update(Text(_("joining the table…"), style=Style(color=MUTED)))
        self.join(seat)

    @work(exclusive=True, group="join")
    async def join(self, seat: int | None) -> None:
        """Sit at ``seat`` (None: watch); the table replaces this screen once its game is here
        (the session's client reads on the app's loop)."""
        try:
            watch = seat is None  # a spectator owns nothing: it watches as the account
            user = None if watch else self.choice.user
            session = await RemoteSession.open(self.choice.place, self.choice.table, seat=seat, watch=watch, user=user)
        except (Unreachable, Refused, Dropped, Diverged) as e:
            self._refused(str(e))
            return
        cast(GameHost, self.app).start_game(session)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.back if action == "back" else True

    def action_back(self) -> None:
        self.app.pop_screen()

    def _refused(self, message: str) -> None:
        self.joining = False
        self._error(message)
        self.follow()

    def _error(self, message: str) -> None:
        self.query_one("#seats-error", Static).update(
            Text(f"✗ {printable(message)}", style=Style(color=ERROR, bold=True)) if message else ""
        )
