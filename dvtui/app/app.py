"""The dvtui Textual application: a game, the set-up screen, the start menu or the replay viewer
first; the palette, clean exits, and the run's :class:`~dvtui.app.exit_state.ExitState`.

Every event is on disk before the next decision is asked for, so leaving is always safe: ``q``,
Ctrl+C, a hang-up (SIGHUP: a closed terminal or a dropped SSH link) or SIGTERM just close the file
(exit code 128 + the signal for the last two, through :class:`dvtui.signals.HangupGuard`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.events import DeliveryComplete, DeliveryFailed, Event
from textual.markup import escape
from textual.notifications import Notify, SeverityLevel
from textual.screen import Screen

if TYPE_CHECKING:
    from ..replay import Replay
    from .options import First
    from .screens.lobby import Lobby
    from .screens.seats import SeatChoice

from ..engine import GameCreated, RuleError, SeatError, new_game
from ..i18n import N_, _
from ..play.face import GameSession
from ..play.local import LocalSession
from ..printable import printable
from ..rulewords import rule_words
from ..signals import HangupGuard
from ..store import GameFileError, LoadedGame, SaveError, new_save_path
from .config import SetupChoice, SetupDefaults, default_player_name, load_azerty, load_notify, load_pace
from .exit_state import ExitState, exit_state_of
from .first_keys import FirstKeys
from .keys import azerty_keymap, qwerty_keymap
from .messages import STATE_TITLE, BranchRequested
from .options import AppOptions, ChooseSeat, Menu, Setup, Watch
from .screens.table import TableScreen
from .spoken import key_display
from .textual_private import FooterKey, default_css, keep_no_break_spaces, notifications, unnotify
from .theme import GOLD

keep_no_break_spaces()  # every screen wraps its lines the way French spaces its text

MAX_TOASTS = 3
"""Notifications on screen at once (each is about five rows): a stack taller than the screen
leaves its cells painted after it goes (Textual does not repaint them), and more cover the table."""

MAX_SCREENSHOTS_WAITING = 3
"""Screenshots a browser tab has been sent and not yet downloaded (each is held in memory until
the browser fetches it): more are refused, in words, so that a tab cannot pile them up."""


def screenshot_dir() -> Path:
    """Where a screenshot goes: the Downloads folder when there is one, else the working directory."""
    import platformdirs

    downloads = Path(platformdirs.user_downloads_dir())
    return downloads if downloads.is_dir() else Path.cwd()


def _comes_back(screen: Screen[object]) -> bool:
    """A screen a table is pushed over, and comes back to when left (not replaced by it): a
    tournament's, which seats its person again after each game."""
    from .screens.arenas import ArenaScreen

    return isinstance(screen, ArenaScreen)


class DvtuiApp(App[ExitState]):
    """The app, opening on ``first`` (a game to play, the set-up screen, the start menu, the replay
    viewer or a shared table's seat to choose: :mod:`dvtui.app.options`) and run as ``options``
    says. ``run()`` returns how it ended (:mod:`dvtui.app.exit_state`)."""

    CSS_PATH = "dvtui.tcss"
    TITLE = "Dolce Vita"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", N_("quit"), show=False, priority=True, system=True),
    ]

    def __init__(self, first: First | None = None, options: AppOptions | None = None) -> None:
        super().__init__()
        first = Setup() if first is None else first
        options = AppOptions() if options is None else options
        self._opening: GameSession | None = None
        """The game the app opens on, until the table takes it."""
        self._table: TableScreen | None = None
        """The table, once there is one: it owns the game being played (see :attr:`session`)."""
        self._first_keys = FirstKeys()
        self.watched: LoadedGame | None = None
        self.menu = False
        """Without a game: the start menu first (plain ``dvtui``), else the set-up screen."""
        self.lobby: Lobby | None = None
        """The table server whose tables the start menu lists (None: none)."""
        self.choose_seat: SeatChoice | None = None
        """A shared table whose seat is chosen on screen first (a browser tab's way in)."""
        if isinstance(first, Watch):
            self.watched = first.game
        elif isinstance(first, Menu):
            self.menu, self.lobby = True, first.lobby
        elif isinstance(first, ChooseSeat):
            self.choose_seat = first.choice
        elif not isinstance(first, Setup):
            self._opening = first
        self.setup_defaults = options.setup
        self.pace = options.pace if options.pace is not None else load_pace()
        self.output = options.output
        self.seed_source = options.seed_source or (lambda: 0)
        self.save_path = options.save_path
        self.branch_path = options.branch_path or new_save_path
        """Where a branch ("play from here") is written (default: a fresh file in the saves directory)."""
        self.player_name = options.player_name
        """Who takes a bot's seat in a branch (default: the login name, as ``dvtui new``)."""
        self.branched: Path | None = None
        """The file of the latest branch, once there is one."""
        self.handle_hangup = options.handle_hangup
        self.bell_on_turn = options.bell
        """At a shared table: ring the terminal's bell when it becomes the player's turn."""
        self.notify_on_turn = load_notify() and not options.in_browser
        """At a shared table: a desktop notification through the terminal on the player's turn (the
        person's setting; a browser tab changes its title and icon instead)."""
        self.azerty = False
        """The AZERTY option (the settings' ``azerty``): on once the app is mounted."""
        self.in_browser = options.in_browser
        """Served to a browser tab (``dvtui web``; the command line knows): a shared table there
        makes no branch (see :class:`~dvtui.app.screens.table.TableScreen`), the start menu opens
        the tab's own saved games only, a screenshot goes to the browser."""
        self.hung_up = False
        self._guard: HangupGuard | None = None
        self._frozen = False
        self._outcome: ExitState | None = None
        self._screenshots_waiting: set[str] = set()
        """The delivery keys of screenshots sent to the browser and not yet downloaded."""

    @property
    def session(self) -> GameSession | None:
        """The game being played: the table's (the table owns it, and plays a branch or a
        rematch by adopting it); before the table is up, the game the app opens on."""
        return self._table.session if self._table is not None else self._opening

    @property
    def return_value(self) -> ExitState | None:
        """What ``run()`` returns: how the run ended, known once the app has closed (a bot's move
        may still land between a quit and the end). A result handed to ``exit`` comes first (a
        screenshot tool's)."""
        given = super().return_value
        return given if given is not None else self._outcome

    async def on_mount(self) -> None:
        self.call_after_refresh(self.freeze_long_lived)
        self.use_azerty(load_azerty())
        if self.handle_hangup:
            self._guard = HangupGuard(self._hang_up)
            self._guard.install()
        if self._opening is None and self.watched is None:
            await self.push_screen(self._first_screen())
        self.call_after_refresh(self._open_keys)  # (once the first screen has its focus)

    def _first_screen(self) -> Screen[Any]:
        if self.choose_seat is not None:
            from .screens.seats import SeatScreen

            return SeatScreen(self.choose_seat)
        if self.menu:
            from .screens.menu import MenuScreen

            return MenuScreen(self.lobby)
        from .screens.setup import SetupScreen  # only when there is no --players: a faster start

        return SetupScreen(self.setup_defaults, self.create_session, self.start_game)

    async def on_event(self, event: Event) -> None:
        if not self._first_keys.hold(event):  # (typed before the first screen could take it)
            await super().on_event(event)

    async def _open_keys(self) -> None:
        for event in self._first_keys.release():
            await super().on_event(event)

    def on_notify(self, event: Notify) -> None:
        """Before Textual shows ``event``'s notification: it replaces one saying the same thing
        (or, for a state such as the pace, one with the same title), and the oldest go so that at
        most :data:`MAX_TOASTS` are up (Textual has no public way to drop one notification:
        :mod:`.textual_private`). Notify messages are handled in the
        order they were posted, so quick key presses replace each other too."""
        new = event.notification
        for old in notifications(self):
            same = (old.message, old.title, old.severity) == (new.message, new.title, new.severity)
            if same or (new.title == _(STATE_TITLE) and old.title == new.title):
                unnotify(self, old)
        up = notifications(self)
        for old in up[: max(0, len(up) - (MAX_TOASTS - 1))]:
            unnotify(self, old)

    def get_default_screen(self) -> Screen[Any]:
        """The table or the viewer itself: no blank screen to draw first."""
        if self._opening is not None:
            return self._new_table(self._opening)
        if self.watched is not None:
            return self._viewer(self.watched)
        return super().get_default_screen()

    def _hang_up(self, signum: int) -> None:
        """SIGHUP (the terminal is gone) or SIGTERM: everything is already saved; close the file
        (releasing its lock) and leave. The guard's watchdog makes sure of it."""
        self.hung_up = True
        if (session := self.session) is not None:
            session.close()
        self.exit(return_code=128 + signum)

    # -- from set-up to table ------------------------------------------------------------------

    def create_session(self, choice: SetupChoice) -> LocalSession:
        """Deal (seed chosen now if none was given) and create the save file."""
        seed = choice.seed if choice.seed is not None else self.seed_source()
        created = new_game(choice.seats, first_player=choice.first, seed=seed)
        path = self.output
        if path is None and self.save_path is not None:
            path = self.save_path(created)
        return LocalSession.start(created, path)

    def _new_table(self, session: GameSession, *, recap: bool = True) -> TableScreen:
        self._table = TableScreen(
            session,
            self.pace,
            recap=recap,
            bell=self.bell_on_turn,
            notify=self.notify_on_turn,
            in_browser=self.in_browser,
        )
        return self._table

    def start_game(self, session: GameSession, *, recap: bool = True) -> None:
        """The table, playing ``session``, in place of the screen asking for it (the set-up, the
        menu, a viewer it opened); over the app's first screen, which cannot be switched away.
        ``recap``: see :class:`TableScreen`. With a table already under it (a viewer opened from
        the end screen), that table plays ``session``: a second table would take the first's id.
        Over a tournament's screen, which the table comes back to when left."""
        old = self._table
        if old is not None and old in self.screen_stack:
            while self.screen is not old:
                self.pop_screen()
            old.adopt(session)
            return
        table = self._new_table(session, recap=recap)
        if len(self.screen_stack) > 1 and not _comes_back(self.screen):
            self.switch_screen(table)
        else:
            self.push_screen(table)

    def back_to_menu(self) -> bool:
        """Leave the table on screen for the start menu (or the tournament) under it, when there is one: the table's
        session is let go (a shared table keeps the seat for ``dvtui join``), and the menu's lobby
        is read again."""
        from .screens.menu import MenuScreen

        menu = next((s for s in reversed(self.screen_stack) if isinstance(s, MenuScreen) or _comes_back(s)), None)
        table = self._table
        if menu is None or table is None:
            return False
        table.session.close()
        self._table = None
        while self.screen is not menu:
            self.pop_screen()
        return True

    # -- after a game: a rematch, a new game --------------------------------------------------

    def rematch(self) -> None:
        """The same seats and first player, the next seed, a new file in the saves directory; the
        table plays it from now on (the finished game stays as it is). At a shared table that deals
        its rematch, the table is asked instead: it deals once everyone there accepts, and the
        table screen adopts its next game then."""
        old = self.session
        if old is None:
            return
        table = old.table
        if old.abilities.table_rematch and table is not None:
            try:
                table.rematch(True)
            except RuleError as e:
                self.notify(rule_words(e), severity="warning", timeout=8, markup=False)
                return
            self.notify(_("Rematch asked: the table deals it once everyone there has accepted (d on the end "
                          "screen turns it down)."), title=_("Rematch"), timeout=6)  # fmt: skip
            return
        refused = old.abilities.rematch
        if refused is not None:
            self.notify(refused, severity="warning", timeout=8)
            return
        created = old.game.created
        seed = (created.seed or 0) + 1
        try:
            session = LocalSession.start(
                new_game(list(created.players), first_player=created.first_player, seed=seed),
                None if old.path is None else self._fresh_path(created),
            )
        except (SaveError, OSError) as e:
            self.notify(_("No rematch: {error}").format(error=e), severity="error", timeout=10, markup=False)
            return
        said = _("Rematch, deal {seed}: {path}").format(seed=seed, path=session.path)
        self.notify(said, title=_("A new game"), timeout=6, markup=False)
        self.start_game(session)

    def new_game_setup(self) -> None:
        """The set-up screen, filled in with this game's seats; its game is played on this table
        (Esc comes back here)."""
        from .screens.setup import SetupScreen

        old = self.session
        if old is not None and old.abilities.rematch is not None:  # a shared table's game is its server's
            self.notify(old.abilities.rematch, severity="warning", timeout=8, markup=False)
            return
        defaults = SetupDefaults(default_name=self.setup_defaults.default_name)
        if old is not None:
            created = old.game.created
            defaults = SetupDefaults(
                seats=list(created.players), first=created.first_player, default_name=defaults.default_name
            )
        self.output = None  # a file given with -o holds the game just played
        if self.save_path is None and (old is None or old.path is not None):
            self.save_path = new_save_path
        self.push_screen(SetupScreen(defaults, self.create_session, self.start_game, leave=self.pop_screen))

    def _fresh_path(self, created: GameCreated) -> Path:
        return (self.save_path or new_save_path)(created) or new_save_path(created)

    # -- the replay viewer, branches -------------------------------------------------------------

    def open_viewer(self, loaded: LoadedGame, *, from_file: bool = True) -> None:
        """The replay viewer over ``loaded``, on top of the screen it was asked from (the start
        menu, the end screen), which Escape returns to. ``from_file``: ``loaded`` is a file of this
        machine (its analysis is kept beside it); not a game a table server sent, whose name is
        no path."""
        self.push_screen(self._viewer(loaded, back=True, from_file=from_file))

    def _viewer(self, loaded: LoadedGame, *, back: bool = False, from_file: bool = True) -> Screen[Any]:
        from ..replay import Replay
        from .screens.replay import ReplayScreen

        replay = Replay.of(loaded)
        return ReplayScreen(
            replay,
            notices=loaded.notices,
            branch=partial(self._branch_file, loaded, replay),
            start=0,
            game_file=Path(loaded.path) if from_file else None,
            back=back,
        )

    def _branch_file(self, loaded: LoadedGame, replay: Replay, moment: int, take: int | None) -> None:
        """``b`` in the viewer of a file: play from ``moment`` (a decision moment, as the viewer
        hands it over) on a table over the viewer, with no recap: the resolution a branch starts
        after was just watched."""
        session = self._open_branch(loaded, replay, moment, take)
        if session is None:
            return
        said = _("A new game from moment {moment}: {path}").format(moment=moment, path=session.path)
        self.notify(said, title=_("Playing from here"), timeout=6)
        self.start_game(session, recap=False)

    def _open_branch(self, loaded: LoadedGame, replay: Replay, moment: int, take: int | None) -> LocalSession | None:
        """The branch of ``loaded`` at ``moment``, open for play (see
        :func:`dvtui.replay.branch.start_branch`); None, with the reason shown, when no branch
        could be made."""
        from ..replay.branch import BranchError, start_branch  # only when branching

        try:
            session = start_branch(
                loaded,
                replay,
                moment,
                take=take,
                player_name=self.player_name or default_player_name(),
                path_for=self.branch_path,
                open_game=LocalSession.resume,
            )
        except BranchError as e:
            self.notify(str(e), severity="warning", timeout=5)
            return None
        except (SaveError, GameFileError, OSError, SeatError) as e:
            said = rule_words(e) if isinstance(e, SeatError) else str(e)
            self.notify(_("Could not start a branch: {error}").format(error=said), severity="error", timeout=10)
            return None
        self.branched = session.path
        return session

    def _branch_over(self, table: TableScreen, loaded: LoadedGame, request: BranchRequested) -> LocalSession | None:
        """The branch of ``loaded`` at the moment asked for, with the viewer (and anything over it)
        gone from over ``table``; None: not made (the reason was said)."""
        from ..replay import Replay

        session = self._open_branch(loaded, Replay.of(loaded), request.moment, request.take)
        if session is not None:
            while self.screen is not table:
                self.pop_screen()
        return session

    @on(BranchRequested)
    def _branch_table(self, request: BranchRequested) -> None:
        """``b`` in time travel over the live table: the game as this side has it (a file of this
        machine, or the lines a shared table sent) is branched at the moment asked for, and the
        table under the viewer plays the branch. The game it came from stays as it is: a file
        (``dvtui resume`` continues it), or a shared table this side leaves, never changed (its
        seat stays its owner's, away meanwhile, and ``dvtui join`` brings them back)."""
        table = request.table
        if not isinstance(table, TableScreen):
            return
        old = table.session
        abilities = old.abilities
        if abilities.branch is None:  # no file, no lines: nothing to branch from
            return
        where = _("table {table}").format(table=abilities.table) if abilities.table is not None else str(old.path)
        try:
            loaded = old.as_file()
        except (GameFileError, OSError) as e:
            said = _("Could not read {where} to branch it: {error}").format(where=where, error=e)
            self.notify(said, severity="error", timeout=10)
            return
        session = self._branch_over(table, loaded, request)
        if session is None:
            return
        table.adopt(session)
        if abilities.table is not None:
            seat = "join" if abilities.seats_here else "watch"
            kept = _("Table {table} goes on without you: dvtui {command} {table} brings you back.").format(
                table=abilities.table, command=seat
            )
            now = _("Now moment {moment} of a game of your own in {path}.")
        else:
            kept = (
                _("The game you left is as it was in {path}.")
                if old.game.over
                else _("The game you left is as it was in {path} (dvtui resume continues it).")
            ).format(path=old.path)
            now = _("Now moment {moment} of the game in {path}.")
        said = now.format(moment=request.moment, path=session.path) + " " + kept
        self.notify(said, title=_("Playing from here"), timeout=8)  # fmt: skip

    def use_azerty(self, on: bool) -> None:
        """The AZERTY option: the top row picks cards, and "slower" moves off ``-`` (``keys.AZERTY``)."""
        self.azerty = on
        self.update_keymap(azerty_keymap() if on else qwerty_keymap())

    # -- command palette ---------------------------------------------------------------------

    TEXTUAL_COMMANDS = (
        N_("Quit"), N_("Quit the application as soon as possible"), N_("Keys"),
        N_("Show help for the focused widget and a summary of available keys"),
        N_("Hide the keys and widget help panel"), N_("Minimize"), N_("Minimize the widget and restore to normal size"),
        N_("Maximize"), N_("Maximize the focused widget"), N_("Screenshot"),
    )  # fmt: skip
    """Textual's own palette entries that the app keeps, for the catalogue."""

    def get_key_display(self, binding: Binding) -> str:
        """A key's name in the footer, in the language spoken now (``Échap``, ``Espace``)."""
        return key_display(super().get_key_display(binding))

    def action_command_palette(self) -> None:
        """The palette, its search field's placeholder in the language spoken now."""
        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(CommandPalette(placeholder=_("Search for commands…"), id="--command-palette"))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        palette_commands = getattr(screen, "palette_commands", None)  # the game's commands, or the viewer's
        if palette_commands is not None:
            for title, help_, callback in palette_commands():
                # the palette reads both as markup, and a help may quote a path
                yield SystemCommand(escape(printable(title)), escape(printable(help_)), callback)
        for command in super().get_system_commands(screen):
            if command.title == "Theme":  # the table draws in its own colours: a theme would recolour the footer only
                continue
            if command.title == "Screenshot":  # Textual's says neither where it saved nor why it could not
                said = (
                    _("Save the screen as SVG: download it from the browser")
                    if self.is_web
                    else _("Save the screen as SVG: in {path}").format(path=screenshot_dir())
                )
                command = SystemCommand(command.title, said, lambda: self.set_timer(0.1, self.take_screenshot))
            yield SystemCommand(_(command.title), _(command.help), command.callback, command.discover)

    def take_screenshot(self) -> Path | None:
        """The screen as an SVG file in :func:`screenshot_dir`; says where, or why not. In a
        browser tab it is the browser's download (None), never a file of the account serving the
        tab, which every browser user could otherwise fill."""
        if self.is_web:
            self._send_screenshot()
            return None
        directory = screenshot_dir()
        try:
            path = Path(self.save_screenshot(path=str(directory)))
        except OSError as e:
            said = _("Screenshot not saved: {path}: {error}").format(path=directory, error=e.strerror or e)
            self.notify(said, severity="error", timeout=8, markup=False)
            return None
        self.notify(_("Screenshot saved: {path}").format(path=path), timeout=8, markup=False)
        return path

    def _send_screenshot(self) -> None:
        """The screen as an SVG download in the browser, unless :data:`MAX_SCREENSHOTS_WAITING`
        are still waiting for the browser to fetch them."""
        if len(self._screenshots_waiting) >= MAX_SCREENSHOTS_WAITING:
            said = _("Screenshot not taken: {n} are waiting for the browser to download them")
            self.notify(said.format(n=MAX_SCREENSHOTS_WAITING), severity="warning", timeout=8)
            return
        key = self.deliver_screenshot()
        if key is not None:
            self._screenshots_waiting.add(key)

    @on(DeliveryComplete)
    @on(DeliveryFailed)
    def _screenshot_delivered(self, event: DeliveryComplete | DeliveryFailed) -> None:
        self._screenshots_waiting.discard(event.key)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """``$gold`` for the stylesheets: the same gold as the table's Rich text (:data:`theme.GOLD`)."""
        return {"gold": GOLD}

    async def action_quit(self) -> None:
        self.exit(return_code=0)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every notice of the app (screens' and widgets' ``notify`` come here too) is plain text,
        made printable: notices quote names, paths and lock records, which are never markup (a
        ``[/]`` would crash the toast, an ``[@click=...]`` would run an action) and never drive the
        terminal. ``markup`` is ignored: a widget's ``notify`` passes Textual's default of True."""
        super().notify(printable(message), title=printable(title), severity=severity, timeout=timeout, markup=False)

    def prepare_start(self) -> None:
        """Do ahead what the start menu's start needs and what does not depend on when it starts,
        for a dvtui started before its browser tab opens (``dvtui web``'s spare): the menu's and
        the web driver's modules imported, and the stylesheet parsed, the app's and the menu's
        widgets' (Textual keeps each source's parse, so ``run`` parses none of them again)."""
        from textual.containers import Vertical
        from textual.css.stylesheet import Stylesheet
        from textual.drivers import web_driver  # noqa: F401  (the driver a tab's dvtui runs on)
        from textual.widgets import Input, OptionList, Static

        from .screens.menu import MenuScreen
        from .widgets.footer import Footer

        stylesheet: Stylesheet = self.stylesheet
        if self.css_path:
            stylesheet.read_all(self.css_path)
        for kind in (type(self), Screen, MenuScreen, Vertical, Static, OptionList, Input, Footer, FooterKey):
            for read_from, css, tie_breaker, scope in default_css(kind):
                stylesheet.add_source(css, read_from=read_from, is_default_css=True, tie_breaker=tie_breaker,
                                      scope=scope)  # fmt: skip
        stylesheet.parse()

    def freeze_long_lived(self) -> None:
        """What is alive now lives as long as the app: leave it out of the garbage collector's
        passes, which otherwise walk it all again and again and stall a key press (while scrubbing
        a replay, say). Done once the app is built (Textual and the styles: the command line
        asks) and again once its first screen is drawn (the widgets). Undone when the app ends, so
        objects of an app run in a longer process are collectable."""
        gc.freeze()
        self._frozen = True

    def on_unmount(self) -> None:
        """The app's last act: let go of the game, and say how the run ended."""
        if self._frozen:
            gc.unfreeze()
        session = self.session
        if session is not None:
            session.close()
        branched = session is not None and session.path is not None and session.path == self.branched
        self._outcome = exit_state_of(session, self.return_code or 0, hung_up=self.hung_up, branched=branched)
        if self._guard is not None:
            self._guard.uninstall()
