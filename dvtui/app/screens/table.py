"""The live table: one screen for the whole game, whichever side keeps it.

A key or a click becomes a decision handed to the session, which returns at once; every decision
that stands comes back as :class:`~dvtui.play.face.Decided` news (a :class:`SessionNews` message),
one's own as everyone else's, and only then is it shown. So the screen draws and takes keys while
a local save or a table server is slow. The turn's state is a :class:`~dvtui.app.flow.TableFlow`
(Textual-free): this screen renders from it and runs its effects. Bots that think on this side
(and the hint) search in worker threads (its base, :class:`~.table_thinking.TableThinking`).

What differs between a game of this machine and a seat at a shared table is asked of the session
(:attr:`~dvtui.play.face.GameSession.abilities`); a shared table's part is a
:class:`~.shared_table.SharedTable`, made only for a session with a table side. What the screen
draws is its base's, :class:`~.table_drawing.TableDrawing`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from typing import ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.events import DescendantBlur, DescendantFocus
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

from ...engine import Event, Placement, PlacementUndone, RoundEnded, RuleError, fold
from ...i18n import N_, _
from ...play.face import Decided, GameSession, News, Redealt, Refused, Spoken, TableNews, presence_of
from ...play.session import PlayedMove
from ...rulewords import rule_words
from ..config import Pace, save_pace
from ..flow import TableFlow
from ..host import GameHost
from ..keys import SHARED_TABLE, TABLE, UNDO, KeyMap, PaletteEntry
from ..messages import STATE_TITLE, BotPlaced, BranchRequested, LiveEvents
from ..widgets.board import Board
from ..widgets.hand import HandBar
from ..widgets.panels import Banner, EventLog, PaceLabel
from ..widgets.table_view import KeysFooter, compose_table, linger
from .column import ColumnScreen, shown_column
from .dialog import LeaveForBranch
from .end import EndScreen
from .shared_table import SharedTable
from .table_thinking import TableThinking

NO_BRANCH_IN_BROWSER = N_("No play from here in a browser tab at a shared table: the branch would be a file of "
                        "the web server's account, which no page of the table can open.")  # fmt: skip


class SessionNews(Message, bubble=False):
    """News from the session the table plays (``session``: an adopted game's replaces it, and the
    old one's late news is dropped)."""

    def __init__(self, session: GameSession, news: News) -> None:
        super().__init__()
        self.session = session
        self.news = news


class TableScreen(TableThinking):
    """The game. ``session`` holds the state and decides what this side may do; the table plays a
    branch or a rematch by adopting its session. ``bell``: ring the terminal's bell once when it
    becomes this side's turn at a shared table; ``notify``: ask the terminal for a desktop
    notification then too. ``in_browser``: in a browser tab (``dvtui web``),
    where a shared table's branch is refused: it would be saved in the web server's account."""

    AUTO_FOCUS = ""  # nothing: the table's keys are the screen's; the log is focused on demand

    BINDINGS: ClassVar[list[BindingType]] = SHARED_TABLE.bindings()
    """Every table's keys: a key whose action the session does not allow is never offered."""

    def __init__(
        self, session: GameSession, pace: Pace | None = None, *, recap: bool = True, bell: bool = True,
        notify: bool = False, in_browser: bool = False,
    ) -> None:  # fmt: skip
        """``recap``: open on the resolution of the round the file ends in, as a resumed game left
        while it was shown does; a branch starts where its player chose, with nothing unseen."""
        super().__init__(id="table")
        self.session = session
        self.recap_on_mount = recap
        self.pace = pace or Pace()
        self.bell = bell
        self.notify_on_turn = notify
        self.in_browser = in_browser
        self.flow = TableFlow(session, hold_summary=self.pace.hold_round_end)
        """The turn: replaced whole by :meth:`adopt`."""
        self._timer: Timer | None = None
        self._laid_out_for = Size(0, 0)
        self._binding_state: tuple[bool | None, ...] = ()
        self._time_travel: Screen[None] | None = None
        """The viewer opened over this game (``t``), told of each new event."""
        self.shared = SharedTable(self, session.table) if session.table is not None else None
        """The shared table's part (who is there, what one may ask of it), for a table's session only."""

    @property
    def keys(self) -> KeyMap:
        """This table's keys, for the help and the palette (a shared table's has ``a``)."""
        return SHARED_TABLE if self.session.abilities.table is not None else TABLE

    # -- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        layout = self._layout(*self.app.size)
        yield from compose_table(self, layout, EventLog(), hide_banner=True)
        with Horizontal(id="footer-row"):
            # at 80 columns the palette's ^p makes room for the pace (it is in the help and ^p works)
            yield KeysFooter(compact=True, show_command_palette=layout.wide, terse=layout.compact)
            yield PaceLabel()

    def on_mount(self) -> None:
        self._listen()
        log = self.query_one(EventLog)
        for notice in self.session.notices:
            self.notify(notice, title=_("Recovered"), severity="warning", timeout=8)
        self._laid_out_for = self.app.size
        self._binding_state = self._binding_key()  # the footer is about to be drawn anyway
        self.query_one(PaceLabel).show(self.pace.bot_delay)
        told = self.flow.recap() if self.recap_on_mount else None
        events = self.session.events
        log.reset(events[:told] if told is not None else events, self.session.game)
        self.refresh_view()
        if self.flow.resolution is not None:
            self._show_step()
        self.call_after_refresh(self.advance)
        if self.shared is not None:  # a table's move clock ticks here, from the server's figure
            self.set_interval(1.0, self._tick_clock)

    def _tick_clock(self) -> None:
        """Each second at a shared table: the move clock counted down on this side, from the
        server's figure."""
        shared = self.shared
        if shared is None or self not in self.app.screen_stack or shared.presence().move_left is None:
            return
        if self.flow.resolution is None:
            self._show_round_bar()
        elif self.flow.my_turn():  # the clock of a turn called over a resolution
            self._show_step_bar()

    def _listen(self) -> None:
        session = self.session

        def tell(news: News) -> None:
            self.post_message(SessionNews(session, news))

        session.attach(tell)

    @on(DescendantFocus)
    @on(DescendantBlur)
    def _log_focus(self, event: DescendantFocus | DescendantBlur) -> None:
        """While the log is read (focused), it takes the place of the board and the hand where it
        is otherwise a few lines under them (80x24); the scores stay, and Escape gives the table back."""
        if isinstance(event.widget, EventLog):
            self.set_class(isinstance(event, DescendantFocus), "-reading-log")

    def on_resize(self) -> None:
        if self.app.size != self._laid_out_for:
            self._laid_out_for = self.app.size
            self._relayout(*self.app.size)

    # -- what the session tells ------------------------------------------------------------------

    @on(SessionNews)
    def _news(self, message: SessionNews) -> None:
        if message.session is not self.session:
            return  # the game played before this one
        if self not in self.app.screen_stack:
            return  # the table is being taken down (the app is closing): nothing to show it on
        news = message.news
        if isinstance(news, Decided):
            self._decided(news.move)
        elif isinstance(news, Refused):
            self._refused(news)
        elif isinstance(news, TableNews):
            self._table_news(news)
        elif isinstance(news, Spoken) and self.shared is not None:
            self.shared.spoken(news)
        elif isinstance(news, Redealt):
            self._redealt(news.session)
            return
        self._call_turn()  # (a turn that came while something else is on screen is called now)

    def _redealt(self, session: GameSession) -> None:
        """The table dealt its rematch: back to this screen (from the end screen, say), playing it."""
        while self.app.screen is not self and self in self.app.screen_stack:
            self.app.pop_screen()
        game = session.game
        first = game.created.players[game.created.first_player].name
        said = _("The table deals its next game: {name} plays first.").format(name=first)
        self.notify(said, title=_("Rematch"), timeout=6, markup=False)
        if self.shared is not None:
            self.shared.offer_seat_again(session)
        self.adopt(session)

    def _decided(self, move: PlayedMove) -> None:
        self.workers.cancel_group(self, "hint")  # a hint for the position gone
        if self.flow.thinking is not None:  # a bot of this side searching a position that is gone
            self.workers.cancel_group(self, "bot")
        if self.flow.resolution is None:  # a bot's turn waiting to start (a resolution's step timer goes on)
            self._stop_timer()
        self._tell_time_travel(move.events)
        shown = self.flow.arrive(move)
        if shown is not None:
            self._show_move(shown)
        elif self.flow.resolution is not None:
            self._show_step_bar()  # the header says a turn the resolution on screen hides
            self._bindings_changed()

    def _refused(self, news: Refused) -> None:
        if news.save_failed:
            said = _("{reason}. It was not saved: the game stops here.").format(reason=news.reason)
            self.notify(said, title=_("Could not save"), severity="error", timeout=15)
        else:
            self.notify(news.reason, title=_("The table says"), severity="warning", timeout=8)
        self.refresh_view()
        self.advance()

    def _table_news(self, news: TableNews) -> None:
        """Who is there, or the connection, changed; or the table said something."""
        if self.shared is not None:
            self.shared.table_news(news)
        if self.flow.resolution is not None:
            self._show_step_bar()
            self._bindings_changed()  # who is there may have changed what the footer offers
        elif not self.flow.waiting:
            self.refresh_view()

    def _show_move(self, move: PlayedMove) -> None:
        """Show a decision that stands: into the log, then its resolution step by step, or the
        position it leads to."""
        log = self.query_one(EventLog)
        game = self.session.game
        if isinstance(move.events[0], PlacementUndone):
            log.add(move.events, game)
        else:
            log.add(move.events[:1], game)
        if self.flow.resolution is not None:
            self._show_step()
            return
        self.refresh_view()
        self.advance()

    def refresh_view(self) -> None:
        """Redraw the live position (its base's), then call this side's turn if it has just come."""
        super().refresh_view()
        self._call_turn()

    def _call_turn(self) -> None:
        """At a shared table, call this side's turn the moment the table asks for it
        (:meth:`~.shared_table.SharedTable.call_turn`)."""
        if self.shared is not None:
            self.shared.call_turn()

    # -- turns -----------------------------------------------------------------------------------

    def advance(self) -> None:
        """Go on: the next move that came meanwhile, the results, or a bot of this side to start
        (a person's turn waits for their keys)."""
        flow = self.flow
        if flow.resolution is not None or self.save_failure is not None:
            return
        waiting = flow.next_waiting()
        if waiting is not None:
            self._show_move(waiting)
            return
        if self.session.game.over and not flow.busy():
            self.refresh_view()
            self.action_results()
            return
        if flow.bot_to_start() is None:
            return
        token = flow.token
        self._stop_timer()
        if self.pace.bot_delay > 0:
            self._timer = self.set_timer(self.pace.bot_delay, partial(self._start_bot, token))
        else:
            self.call_later(self._start_bot, token)

    @on(BotPlaced)
    def _bot_placed(self, message: BotPlaced) -> None:
        flow = self.flow
        if message.token != flow.token or flow.thinking is None:
            return  # about a position (or a game, before a branch) that is gone
        self._decide(partial(self.session.place, message.placement, flow.thinking))

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _decide(self, hand_in: partial[None]) -> None:
        """Hand a decision to the session; it comes back as news (a RuleError: nothing was sent)."""
        try:
            hand_in()
        except RuleError as e:
            self.notify(rule_words(e), severity="warning")
            return
        self.workers.cancel_group(self, "hint")
        self.flow.hand_in()
        self._show_handed()

    # -- the resolution ------------------------------------------------------------------------

    def _show_step(self) -> None:
        event = self._draw_step()
        summary = isinstance(event, RoundEnded)
        self._stop_timer()
        if summary and self.flow.holds_summary:
            return  # people read it in their own time: a key or a click goes on
        if self.pace.step_delay is not None:
            self._timer = self.set_timer(self.pace.step_delay * linger(event), self.action_next_step)

    def _end_resolution(self) -> None:
        self._stop_timer()
        pending = self.flow.end_resolution()
        if pending:
            self.query_one(EventLog).add(pending, self.session.game)
        self.refresh_view()
        self.advance()

    def action_next_step(self) -> None:
        if self.flow.resolution is None:
            return
        if self.flow.next_step():
            self._show_step()
        else:
            self._end_resolution()

    def action_skip(self) -> None:
        """Straight to the round's summary when it waits to be read; past the resolution
        otherwise (or from the summary)."""
        if self.flow.resolution is None:
            return
        if self.flow.skip():
            self._show_step()
        else:
            self._end_resolution()

    @on(Banner.Clicked)
    def _banner_clicked(self) -> None:
        self.action_next_step()

    # -- the person's decisions ----------------------------------------------------------------

    def action_pick(self, card: int) -> None:
        warning = self.flow.pick(card)
        if warning is not None:
            self.notify(warning, severity="warning")
        self.refresh_view()

    def action_step(self, delta: int) -> None:
        self.flow.step(delta)
        self.refresh_view()

    def action_column(self, column: int) -> None:
        self.flow.move_to(column)
        self.refresh_view()

    def action_place(self) -> None:
        player = self.flow.placer()
        if player is None:
            return
        cursor = self.flow.cursor
        if cursor.card is None:
            self.notify(_("Choose a card first: 1 to 6, or click one."), severity="warning")
            return
        self._decide(partial(self.session.place, Placement(cursor.card, cursor.column), player))

    @on(Board.ColumnClicked)
    def _column_clicked(self, message: Board.ColumnClicked) -> None:
        if self.flow.placer() is None:
            return
        self.flow.move_to(message.column)
        if self.flow.cursor.card is None:
            self.refresh_view()
            self.notify(_("Choose a card first, then click a column."), severity="information")
            return
        self.action_place()

    @on(HandBar.CardClicked)
    def _card_clicked(self, message: HandBar.CardClicked) -> None:
        self.action_pick(message.card)

    def action_undo(self) -> None:
        if self.flow.busy():
            return
        player = self.session.undo_player()
        if player is None:
            self.action_cannot_undo()
            return
        self._stop_timer()
        self._stop_thinking()  # the bots answered a move that is going
        self._decide(partial(self.session.undo, player))

    def action_cannot_undo(self) -> None:
        self.notify(self.session.why_no_undo(), severity="warning", markup=False)  # names are plain text

    def action_stand_in(self) -> None:
        """``a``: let a bot play each seat whose owner is away, until they come back."""
        if self.shared is not None:
            self.shared.stand_in()

    def action_start(self) -> None:
        """``s`` while the table waits for people: deal now (the table refuses anyone but its opener)."""
        if self.shared is not None:
            self.shared.start()

    def action_chat(self) -> None:
        """``m``: a line to everyone at the table; it shows in the log when the table says it."""
        if self.shared is not None:
            self.shared.chat()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "sit":
            return self.shared is not None and self.shared.seat_to_take() is not None
        return super().check_action(action, parameters)

    def action_whole_column(self) -> None:
        """``v``: the chosen column (or the one being resolved) whole, past the cards the board has room for."""
        board = self.query_one(Board)
        model = shown_column(board.models, self.flow.cursor.column)
        if model is not None:
            self.app.push_screen(ColumnScreen(model, board.looks, self.session.names))

    def action_sit(self) -> None:
        """``j``: take back, in place, the seat this side resigned, in the table's new game (its rematch)."""
        if self.shared is not None:
            self.shared.sit()

    def action_resign(self) -> None:
        """``r``: give one's seat up to a bot for the rest of the game, asked first."""
        if self.shared is not None:
            self.shared.resign()

    def action_close_table(self) -> None:
        """``x`` (the table's opener): end the table for everyone, asked first."""
        if self.shared is not None:
            self.shared.close()

    def action_pace(self, direction: int) -> None:
        """``+`` (direction -1) makes bots and resolutions quicker, ``-`` (+1) slower; the pace is
        remembered for the next game and the next resume."""
        pace = self.pace
        limit = pace.change(direction)
        self.query_one(PaceLabel).show(pace.bot_delay)
        message = (_("Pace: {pace} — {limit}.") if limit else _("Pace: {pace}.")).format(pace=pace.words(), limit=limit)
        try:
            save_pace(pace)
        except OSError as e:
            message += " " + _("(Not remembered for next time: {error}.)").format(error=e)
        self.notify(message, title=_(STATE_TITLE), timeout=3)  # the app keeps one pace notice up

    def action_results(self) -> None:
        if not self.session.game.over or self.flow.resolution is not None:
            return
        table = self.session.abilities.table
        viewer = partial(self._viewer, live=False) if table is not None else None
        self.app.push_screen(EndScreen(self.session, table=table, viewer=viewer))

    # -- time travel, branches -------------------------------------------------------------------

    def action_time_travel(self) -> None:
        """``t``: the replay viewer's timeline over this game so far, read-only, following the game
        as it goes on (the table tells it each new event); Escape comes back here."""
        self._time_travel = self._viewer(live=True)
        self.app.push_screen(self._time_travel)

    def _viewer(self, *, live: bool) -> Screen[None]:
        """The replay viewer over this game: ``live``, time travel over a game going on (no
        analysis: it would be a hint); else over a finished shared table's game, from its results,
        where ``a`` analyses it. ``b`` plays on from a moment in both."""
        from ...replay import Replay
        from .replay import ReplayScreen

        session = self.session
        how = session.abilities.branch
        refused = _(NO_BRANCH_IN_BROWSER) if how == "lines" and self.in_browser else None
        branch = self._branch_from if refused is None and how is not None else None
        return ReplayScreen(Replay(session.events), live=live, branch=branch, branch_refused=refused, back=True)

    def _tell_time_travel(self, events: Sequence[Event]) -> None:
        """The viewer over this game, while it is open, hears of events just saved (in order:
        they queue up with its other messages)."""
        viewer = self._time_travel
        if viewer is None:
            return
        if viewer in self.app.screen_stack:
            viewer.post_message(LiveEvents(events))
        else:
            self._time_travel = None  # closed (Escape)

    def _branch_from(self, moment: int, take: int | None) -> None:
        """``b`` in time travel: play on from ``moment`` (a decision moment, as the viewer hands it
        over) in a new file. The game played so far stays as it is (a file ``dvtui resume``
        continues, or a shared table, never changed); from now on this table plays the branch (the
        app makes it: :class:`BranchRequested`). A seated player of a shared table is asked first:
        their seat is away while they play the branch."""
        session = self.session
        if not session.abilities.leave_to_branch or fold(session.events[: moment + 1]).game.over:
            self.app.post_message(BranchRequested(self, moment, take))
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.app.post_message(BranchRequested(self, moment, take))

        presence = presence_of(session)
        seat = presence.seat if presence is not None else None
        name = session.names[seat] if seat is not None else ""
        self.app.push_screen(LeaveForBranch(session.abilities.table or "", name), answered)

    def adopt(self, session: GameSession) -> None:
        """Play ``session`` from now on (a branch, a rematch, a new game) and let go of the game
        played so far (closed: a file stays as it is, a shared table goes on without this side).
        Whatever was under way for the old game (a bot thinking, a hint, a resolution on screen)
        is dropped with its flow."""
        self._stop_timer()
        self._stop_thinking()
        old, self.session = self.session, session
        old.close()
        self._time_travel = None  # the viewer over the old game is closed by now
        self.flow = TableFlow(session, hold_summary=self.pace.hold_round_end)
        self.shared = SharedTable(self, session.table, self.shared) if session.table is not None else None
        self._listen()
        self.query_one(EventLog).reset(session.events, session.game)
        self._relayout(*self.app.size)
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(self.keys))

    async def action_quit(self) -> None:
        """``q``: a shared table reached from the start menu is left for the menu (its lobby lists
        the table again); anything else leaves dvtui."""
        if self.session.table is not None and cast(GameHost, self.app).back_to_menu():
            return
        self.app.exit()

    # -- for the command palette ----------------------------------------------------------------

    def palette_commands(self) -> Iterable[PaletteEntry]:
        """What can be done now, for the command palette: the keys' commands the table allows now
        (this table's key map, :attr:`keys`), and where the game is saved."""
        for command in self.keys.offered(lambda action: self.check_action(action, ())):
            if command is UNDO:
                undoer = self.session.undo_player()
                if undoer is not None:
                    yield command.entry(self, name=self.session.names[undoer])
            else:
                yield command.entry(self)
        path = self.session.path
        if path is not None:
            said = _("Saved in {path}").format(path=path)
            yield (_("Where is this game saved?"), str(path), partial(self.notify, said, timeout=8))
