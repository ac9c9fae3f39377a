"""The start menu's "Your games": the games saved on this machine and, when a table server answers,
the finished and kept games there this person sat at, newest first, two lines each (date and
place; opponents, result and place). Enter opens one in the replay viewer, Escape goes back.

A table server's game is fetched as ``dvtui fetch`` fetches it (its lines checked one by one, then
read back as a game file is) and kept in memory: viewing it leaves no file behind; ``s`` saves a copy
among one's saves, as ``dvtui fetch`` would."""

from __future__ import annotations

import os
from typing import ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...i18n import N_, _
from ...store import GameFileError, LoadedGame, SaveError, list_games, new_save_path, parse_game, read_game, saves_dir
from ...store.saves import game_in
from ...tables import Diverged, Dropped, Refused, Unreachable, game_lines, kept_game_lines, my_tables
from ...tables.stamps import last_stamp
from ..host import GameHost
from ..past import MAX_FETCHED, PastGame, fetched, newest_first, saved_games, server_games, unfetched, when_words
from ..spoken import SpokenScreen
from ..theme import ERROR, MUTED
from ..widgets.faces import CHIP, styled
from ..widgets.footer import Footer
from .lobby import Lobby

SERVER_ERRORS = (Unreachable, Refused, Dropped, Diverged, OSError)
"""What asking a table server may end in: the games of this machine are listed all the same."""


class HistoryScreen(SpokenScreen[None]):
    """Every game of this person, newest first: Enter opens the one highlighted in the viewer."""

    DEFAULT_CSS = """
    #history-body {
        padding: 1 2 0 2;
    }

    #history-list {
        height: 1fr;
        border: none;
        margin: 1 0 0 0;
    }

    #history-status {
        height: auto;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("back"), key_display="esc"),
        Binding("s", "save", N_("save a copy")),
    ]

    def __init__(self, person: str, lobby: Lobby | None = None) -> None:
        super().__init__(id="history")
        self.person = person
        """Whose games (a local game's seat of that name, or its only person's, is theirs)."""
        self.lobby = lobby
        """The table server asked for the games kept there (None: this machine's only)."""
        self.local: list[PastGame] = []
        self.server: list[PastGame] = []
        self.shown: list[PastGame] = []
        """The games in the order listed (an option's id is its place here)."""
        self.fetched: dict[str, tuple[LoadedGame, bytes]] = {}
        """The table server's games fetched (read, and their lines as sent), by table: opened from
        memory, never from a file."""

    def compose(self) -> ComposeResult:
        title = styled(" DOLCE VITA ", CHIP)
        title.append("  " + _("your games"), style=Style(bold=True))
        with Vertical(id="history-body"):
            yield Static(title)
            yield OptionList(id="history-list")
            yield Static(id="history-status")
            yield Static(Text(_("↑↓ then ⏎ to watch a game · esc: back to the menu"), style=Style(color=MUTED)))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        try:
            games, bad = list_games()
        except SaveError as e:
            games, bad = [], []
            self._status(str(e), error=True)
        self.local = saved_games(games, bad, self.person)
        self._show()
        self.query_one(OptionList).focus()
        if self.lobby is not None:
            self.read_server(self.lobby)

    @work(exclusive=True, group="history")
    async def read_server(self, lobby: Lobby) -> None:
        """The table server's games of this person (none asked of a personal server that is not
        running), then each one's lines, newest first, its line filled in as they come."""
        self._status(_("Asking the table server for your games…"))
        try:
            me, infos = await my_tables(lobby.place, user=lobby.user, kept=True, start=False)
        except SERVER_ERRORS:
            self._status("")
            return
        self.server = server_games(me, infos)[:MAX_FETCHED]
        self._show()
        for i, entry in enumerate(self.server):
            table = cast(str, entry.table)
            try:
                if entry.kept:
                    data = await kept_game_lines(lobby.place, table, user=lobby.user)
                else:
                    data = await game_lines(lobby.place, table)
                loaded = parse_game(data, table)
            except SERVER_ERRORS as e:
                self.server[i] = unfetched(entry, str(e))
            except GameFileError as e:
                self.server[i] = unfetched(entry, e.message)
            else:
                self.fetched[table] = loaded, data
                self.server[i] = fetched(entry, loaded, last_stamp(data))
            self._show()
        self._status("")

    def _show(self) -> None:
        """List every game, newest first; the highlighted one stays highlighted as lines come."""
        listed = self.query_one(OptionList)
        kept = listed.highlighted
        before = self.shown[kept] if kept is not None and kept < len(self.shown) else None
        self.shown = newest_first([*self.local, *self.server])
        options = [Option(_line(entry), id=str(i), disabled=not entry.opens) for i, entry in enumerate(self.shown)]
        if not options:
            options = [Option(Text(_("No game yet: start one with New game."), style=Style(color=MUTED)),
                              id="none", disabled=True)]  # fmt: skip
        listed.clear_options()
        listed.add_options(options)
        same = next((i for i, e in enumerate(self.shown) if before is not None and _same(e, before)), None)
        listed.highlighted = same if same is not None else next((i for i, e in enumerate(self.shown) if e.opens), None)

    @on(OptionList.OptionSelected, "#history-list")
    def _chosen(self, message: OptionList.OptionSelected) -> None:
        if message.option.id is None or not message.option.id.isdigit():
            return
        entry = self.shown[int(message.option.id)]
        host = cast(GameHost, self.app)
        if entry.table is not None:
            got = self.fetched.get(entry.table)
            if got is not None:
                self._status("")
                host.open_viewer(got[0], from_file=False)
            return
        if entry.path is None:
            return
        try:  # read again, as the viewer needs it: the file may have changed or gone since it was listed
            path = game_in(saves_dir(), entry.path.name) if host.in_browser else entry.path
            loaded = read_game(path, checkpoints=True)
        except (GameFileError, SaveError, OSError) as e:
            said = f"{entry.where}: {e.strerror or e}" if isinstance(e, OSError) else str(e)
            self._status(said, error=True)
            return
        self._status("")
        host.open_viewer(loaded)

    def _highlighted(self) -> PastGame | None:
        index = self.query_one(OptionList).highlighted
        return self.shown[index] if index is not None and index < len(self.shown) else None

    @on(OptionList.OptionHighlighted, "#history-list")
    def _moved(self) -> None:
        self.refresh_bindings()  # s is offered on a table server's game only

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save":
            entry = self._highlighted()
            return entry is not None and entry.table is not None and entry.table in self.fetched
        return True

    def action_save(self) -> None:
        """A copy of the table server's game highlighted among one's saves (named as a new game's
        file is, never after the table: a name the server sent is no path), never over a file."""
        entry = self._highlighted()
        if entry is None or entry.table is None or entry.table not in self.fetched:
            return
        loaded, data = self.fetched[entry.table]
        try:
            path = new_save_path(loaded.game.created)
        except (SaveError, OSError) as e:
            self._status(str(e), error=True)
            return
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except OSError as e:
            self._status(f"{path.name}: {e.strerror or e}", error=True)
            return
        self._status(_("saved as {file}").format(file=path.name))

    def _status(self, message: str, *, error: bool = False) -> None:
        self.query_one("#history-status", Static).update(
            Text(f"✗ {message}" if error else message, style=Style(color=ERROR if error else MUTED, bold=error))
        )

    def action_back(self) -> None:
        self.dismiss(None)


def _same(a: PastGame, b: PastGame) -> bool:
    return (a.path, a.table, a.where) == (b.path, b.table, b.where)


def _line(entry: PastGame) -> Text:
    """A game's two lines: when and where; then who against, the result and one's place (or why
    it does not open). Outside text is in :class:`Text`, never markup."""
    text = Text(when_words(entry), style=Style(bold=True))
    text.append(f"  {entry.where}")
    words = [w for w in (entry.opponents, entry.result, entry.place) if w]
    text.append("\n    ")
    if entry.damaged:
        text.append(entry.damaged, style=Style(color=ERROR))
    else:
        text.append(" · ".join(words), style=Style(color=MUTED) if not entry.result else Style())
    return text
