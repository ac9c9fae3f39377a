"""Plain ``dvtui``: a start menu (a new game, the latest unfinished game, a replay) instead of the
command line's usage text, for someone who just typed the program's name. When a table server
answers, the menu also lists its tables (:mod:`.lobby`): Enter on one chooses a seat or watches."""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path
from typing import ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...i18n import N_, _
from ...store import GameFileError, SaveError, latest_unfinished, list_games, read_game, saves_dir
from ...store.saves import SavedGame, game_in
from ...tables import (
    Diverged,
    Dropped,
    NotFollowed,
    Refused,
    TableInfo,
    Unreachable,
    has_seat,
    played_with,
    server_account,
)
from ..config import SetupDefaults
from ..host import GameHost
from ..spoken import SpokenScreen
from ..theme import ERROR, MUTED
from ..widgets.faces import CHIP, styled
from ..widgets.footer import Footer
from .lobby import POLL, Lobby, lobby_changes, open_new_table, read_lobby, table_label

AROUND_LIST = 8
"""The menu's rows other than its list's: title, margins, the error and hint lines, the footer."""
MIN_LIST_ROWS = 4
NEW_TABLE = "new-table"
PLAY_NOW = "play-now"
RATINGS = "ratings"
TOURNAMENTS = "tournaments"
TABLE = "table-"
"""The start of a listed table's option id (then its place in :attr:`MenuScreen.tables`)."""


class MenuScreen(SpokenScreen[None]):
    """New game, resume the latest unfinished game, replay a file (its path typed, the latest
    game's offered), the table server's tables and a new table there (``lobby``), quit."""

    DEFAULT_CSS = """
    #menu-body {
        padding: 1 2;
        height: auto;
    }

    #menu-choice {
        height: auto;
        border: none;
        margin: 1 0;
    }

    #replay-path {
        width: 1fr;
        margin: 0 0 1 0;
    }

    #menu-error {
        height: auto;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("back"), key_display="esc"),
    ]

    def __init__(self, lobby: Lobby | None = None) -> None:
        super().__init__(id="menu")
        self.latest: SavedGame | None = None
        self.recent: Path | None = None
        self.lobby = lobby
        """Where to look for tables (None: a menu without them)."""
        self.choices: list[tuple[str | Text, str]] = []
        """The menu's own options (prompt, id), the tables aside."""
        self.tables: list[TableInfo] = []
        """The tables listed, in the order shown."""
        self.reachable = False
        """A table server answered the latest reading."""
        self.unshown: tuple[str, list[TableInfo]] | None = None
        """The latest change of the list that came while a screen covered the menu: shown on its return."""

    def compose(self) -> ComposeResult:
        self.latest = latest_unfinished()
        games = list_games()[0]
        self.recent = games[0].path if games else None
        title = styled(" DOLCE VITA ", CHIP)
        title.append("  " + _("the card game, in the terminal"), style=Style(bold=True))
        self.choices = [(_("New game: choose the seats, then play"), "new")]
        if self.lobby is not None:  # first of all: a table of people of one's level, at the table server
            self.choices.insert(0, (_("Play now: a table with people of your level (bots after a minute)"), PLAY_NOW))
        if self.latest is not None:
            game = self.latest.loaded.game
            names = ", ".join(seat.name for seat in game.created.players)
            said = _("Resume the latest game: {names} · round {round} of {rounds}")
            self.choices.append((Text(said.format(names=names, round=game.round, rounds=game.rounds)), "resume"))
        self.choices.append((_("Replay a game file"), "replay"))
        self.choices.append((_("Your games: the ones saved here and at the table server"), "history"))
        options = [Option(prompt, id=id) for prompt, id in self.choices]
        with Vertical(id="menu-body"):
            yield Static(title)
            yield OptionList(*options, Option(_("Quit"), id="quit"), id="menu-choice")
            confined = cast(GameHost, self.app).in_browser  # a tab opens its own games only: by name
            recent = "" if self.recent is None else self.recent.name if confined else str(self.recent)
            path = Input(
                value=recent,
                placeholder=_("name of a saved game") if confined else _("path of a .dvr file"),
                id="replay-path",
            )
            path.display = False
            yield path
            yield Static(id="menu-error")
            yield Static(
                Text(_("↑↓ then ⏎ · the same as: dvtui new, dvtui resume, dvtui replay FILE"), style=Style(color=MUTED))
            )
        yield Footer(compact=True)

    def on_resize(self, event: events.Resize) -> None:
        """The list is as tall as what is around it leaves (a long lobby scrolls in it): the hint
        and the footer stay on screen down to the smallest terminal the game works in."""
        rows = max(MIN_LIST_ROWS, event.size.height - AROUND_LIST)
        self.query_one("#menu-choice", OptionList).styles.max_height = rows

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        if self.lobby is not None:
            self.follow_tables(self.lobby)

    @work(exclusive=True, group="lobby")
    async def follow_tables(self, lobby: Lobby) -> None:
        """The table server's tables as they change, over one connection that follows them (the
        server pushes each change); from a server that does not (an older one), read again every
        :data:`POLL` seconds. No server answering is tried again as often."""
        while True:
            try:
                async for me, tables in lobby_changes(lobby):
                    if self.is_current:
                        self.unshown = None
                        self.show_tables(me, tables)
                    else:
                        self.unshown = (me, tables)
            except NotFollowed:
                await self.poll_tables(lobby)
            except (Unreachable, Refused, Dropped, Diverged, OSError):
                if self.reachable and self.is_current:
                    self.show_tables("", [], reachable=False)
            await asyncio.sleep(POLL)

    def on_screen_resume(self) -> None:
        """What changed in the list while another screen covered the menu, shown now."""
        if self.unshown is not None:
            self.show_tables(*self.unshown)
            self.unshown = None

    async def poll_tables(self, lobby: Lobby) -> None:
        """The table server's tables, read again every :data:`POLL` seconds while the menu is
        shown (not while a screen it opened, a table say, covers it): a server that does not push
        the list's changes."""
        while True:
            if self.is_current:
                read = await read_lobby(lobby)
                if read is not None or self.reachable:
                    self.show_tables(*(read or ("", [])), reachable=read is not None)
            await asyncio.sleep(POLL)

    def show_tables(self, me: str, tables: list[TableInfo], *, reachable: bool = True) -> None:
        """List ``tables`` (``me``: who the server knows this person as) between the menu's own
        choices and Quit, after a way to open a new table while a server answers (``reachable``);
        the highlighted option stays highlighted (a table by its name), wherever it moved."""
        try:
            menu = self.query_one("#menu-choice", OptionList)
        except NoMatches:  # (a read that ends as the app closes: the screen's widgets go before its workers)
            return
        self.reachable = reachable
        kept = menu.highlighted_option
        kept_id = None if kept is None else kept.id
        if kept_id is not None and kept_id.startswith(TABLE):
            name = self.tables[int(kept_id.removeprefix(TABLE))].table
            kept_id = next((f"{TABLE}{i}" for i, info in enumerate(tables) if info.table == name), None)
        self.tables = tables
        options = [Option(prompt, id=id) for prompt, id in self.choices]
        if reachable:
            options.append(Option(_("Open a new table at the table server"), id=NEW_TABLE))
            options.append(Option(_("Ratings: the leaderboard and yours"), id=RATINGS))
            options.append(Option(_("Tournaments: join one, or see its standings"), id=TOURNAMENTS))
        trusted = () if self.lobby is None else server_account(self.lobby.place)
        known = played_with(tables, me, trusted)  # (whose invitations are this person's tables)
        headed: set[str] = set()
        for i, info in enumerate(tables):
            heading = _("Your tables") if has_seat(info, me) else _("Other tables · ⏎ to watch or take a free seat")
            if heading not in headed:
                headed.add(heading)
                shown = Text(heading, style=Style(color=MUTED))
                options.append(Option(shown, id=f"heading-{len(headed)}", disabled=True))
            options.append(Option(table_label(info, me, known), id=f"{TABLE}{i}"))
        options.append(Option(_("Quit"), id="quit"))
        menu.clear_options()
        menu.add_options(options)
        ids = [option.id for option in options]
        menu.highlighted = ids.index(kept_id) if kept_id in ids else 0

    @on(OptionList.OptionSelected, "#menu-choice")
    def _chosen(self, message: OptionList.OptionSelected) -> None:
        app = cast(GameHost, self.app)
        choice = message.option.id
        self._error("")
        if choice == PLAY_NOW and self.lobby is not None:
            from .seek import SeekScreen

            self.app.push_screen(SeekScreen(self.lobby))
        elif choice == "new":
            app.new_game_setup()
        elif choice == "resume" and self.latest is not None:
            self._resume(self.latest)
        elif choice == "history":
            from ..config import default_player_name
            from .history import HistoryScreen

            self.app.push_screen(HistoryScreen(default_player_name(), self.lobby))
        elif choice == "replay":
            self._show_path(True)
        elif choice == "quit":
            self.app.exit()
        elif choice == NEW_TABLE and self.lobby is not None:
            self._new_table(self.lobby)
        elif choice == RATINGS and self.lobby is not None:
            from .ratings import RatingsScreen

            self.app.push_screen(RatingsScreen(self.lobby))
        elif choice == TOURNAMENTS and self.lobby is not None:
            from .arenas import ArenasScreen

            self.app.push_screen(ArenasScreen(self.lobby))
        elif choice is not None and choice.startswith(TABLE) and self.lobby is not None:
            from .seats import SeatScreen

            table = self.tables[int(choice.removeprefix(TABLE))].table
            self.app.push_screen(SeatScreen(self.lobby.choice(table), back=True))

    def _new_table(self, lobby: Lobby) -> None:
        """The set-up screen, asking a table's name too; the table opened is played (Esc comes
        back here)."""
        from .setup import SetupScreen

        host = cast(GameHost, self.app)
        defaults = SetupDefaults(default_name=lobby.person)
        opener = partial(open_new_table, lobby)
        self.app.push_screen(SetupScreen(defaults, host.create_session, host.start_game, leave=self.app.pop_screen,
                                         open_table=opener))  # fmt: skip

    def _resume(self, saved: SavedGame) -> None:
        from ...play.local import LocalSession

        app = cast(GameHost, self.app)
        try:
            session = LocalSession.resume(read_game(saved.path))
        except (GameFileError, SaveError, OSError) as e:
            self._error(str(e))
            return
        app.start_game(session)

    @on(Input.Submitted, "#replay-path")
    def _replay(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        if not text:
            self._error(_("type the path of a game file (.dvr)"))
            return
        try:
            path = game_in(saves_dir(), text) if cast(GameHost, self.app).in_browser else Path(text).expanduser()
            loaded = read_game(path, checkpoints=True)
        except (GameFileError, SaveError, OSError) as e:
            self._error(f"{text}: {e.strerror or e}" if isinstance(e, OSError) else str(e))  # (the system's words)
            return
        cast(GameHost, self.app).open_viewer(loaded)  # a branch from it is played on a table in its place

    def _error(self, message: str) -> None:
        self.query_one("#menu-error", Static).update(
            Text(f"✗ {message}", style=Style(color=ERROR, bold=True)) if message else ""
        )

    def _show_path(self, shown: bool) -> None:
        """The replay's path field, typed in, or put away (the choices are focused again)."""
        path = self.query_one("#replay-path", Input)
        path.display = shown
        (path if shown else self.query_one(OptionList)).focus()
        self.refresh_bindings()  # esc is offered only while there is somewhere to go back from

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return bool(self.query_one("#replay-path", Input).display)
        return True

    def action_back(self) -> None:
        self._show_path(False)
