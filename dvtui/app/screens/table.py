"""The live table: one screen for the whole game, whichever side keeps it.

A key or a click becomes a decision handed to the session, which returns at once; every decision
that stands comes back as :class:`~dvtui.play.face.Decided` news (a :class:`SessionNews` message),
one's own as everyone else's, and only then is it shown. So the screen draws and takes keys while
a local save or a table server is slow. The turn's state is a :class:`~dvtui.app.flow.TableFlow`
(Textual-free): this screen renders from it and runs its effects. Bots that think on this side
(and the hint) search in worker threads on a copy of the state and post their answer as a message
naming the position by the flow's token; an answer about a position that is gone is dropped.

What differs between a game of this machine and a seat at a shared table is asked of the session
(:attr:`~dvtui.play.face.GameSession.abilities`, :meth:`~dvtui.play.face.GameSession.presence`).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Iterable, Sequence
from functools import partial
from typing import ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.events import DescendantBlur, DescendantFocus
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer
from textual.worker import get_current_worker

from ...bots import BotSpec, Stopped, advise, bot_fn
from ...describe import bot_level_name, column_label, gains_line, handover_line, placement_outcome, round_gains
from ...engine import Event, Game, Placement, PlacementUndone, RoundEnded, RuleError, fold
from ...i18n import N_, _
from ...lookalike import shown_as
from ...play.face import Decided, GameSession, News, Presence, Redealt, Refused, Spoken, TableNews
from ...play.presence import seat_to_take
from ...play.session import PlayedMove, preview
from ...store import SaveFailed
from ...tables.protocol import MAX_CHAT_CHARS
from ..config import Pace, save_pace
from ..flow import TableFlow
from ..host import GameHost
from ..keys import SHARED_TABLE, TABLE, UNDO, KeyMap, PaletteEntry
from ..messages import STATE_TITLE, BotPlaced, BranchRequested, HintReady, LiveEvents, ThinkingFailed
from ..notify import PAGE_TURN, turn_notification
from ..spoken import SpokenScreen
from ..textual_private import tell_page
from ..theme import ERROR, GOLD, MUTED, seat_color
from ..widgets.board import Board, Ghost
from ..widgets.faces import seat_emphasis, styled
from ..widgets.hand import HandBar, hint_text
from ..widgets.panels import Banner, EventLog, PaceLabel, RoundBar, colour_names
from ..widgets.presence import connection_words, presence_line, turn_status, waiting_line
from ..widgets.scoreboard import Scoreboard
from ..widgets.table_view import (
    KeysFooter,
    TableLayout,
    apply_layout,
    compose_table,
    linger,
    moment_banner,
    moment_status,
    table_layout,
)
from .column import ColumnScreen, shown_column
from .dialog import Confirm, LeaveForBranch, SayLine
from .end import EndScreen

STAND_IN_LEVEL = "greedy"
"""The bot a seated player lets play an away seat: the table's own stand-in (the server plays no
other for another person's seat, and only once they have been away a while)."""

NO_BRANCH_IN_BROWSER = N_("No play from here in a browser tab at a shared table: the branch would be a file of "
                        "the web server's account, which no page of the table can open.")  # fmt: skip


class SessionNews(Message, bubble=False):
    """News from the session the table plays (``session``: an adopted game's replaces it, and the
    old one's late news is dropped)."""

    def __init__(self, session: GameSession, news: News) -> None:
        super().__init__()
        self.session = session
        self.news = news


class TableScreen(SpokenScreen[None]):
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
        self._told_left = False
        self._told_stopped = False
        self._seat_held: int | None = None
        """The seat this side last held at the table (kept when it resigns it and watches)."""
        self._rematch_told: int | None = None
        """The seat whose rematch proposal was told (None: none is proposed)."""
        self._page_turn = False
        """What the browser tab's page was last told: this side's turn or not."""

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
        self._hold_seat()
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
        if self.session.presence() is not None:  # a table's move clock ticks here, from the server's figure
            self.set_interval(1.0, self._tick_clock)

    def _hold_seat(self) -> None:
        """Remember the seat this side holds at the table (a resignation makes it a spectator)."""
        presence = self.session.presence()
        if presence is not None and presence.seat is not None:
            self._seat_held = presence.seat

    def _tick_clock(self) -> None:
        if self not in self.app.screen_stack:
            return
        presence = self.session.presence()
        if presence is None or presence.move_left is None:
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

    def _layout(self, width: int, height: int) -> TableLayout:
        """The banner has a line under the hand when several people share this keyboard, and at a
        shared table (it says who is there)."""
        session = self.session
        row = session.presence() is not None or len(session.humans) >= 2
        return table_layout(width, height, session.game.n, banner_row=row)

    def _relayout(self, width: int, height: int) -> None:
        """Side panel when there is room, everything stacked at 80x24; cards grow with height."""
        layout = self._layout(width, height)
        apply_layout(self, layout)
        self.query_one(Footer).show_command_palette = layout.wide

    # -- drawing -------------------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Redraw the live position (not a resolution step)."""
        session = self.session
        flow = self.flow
        game = session.game
        flow.follow_keyboard()
        placer = flow.placer()
        cursor = flow.cursor
        board = self.query_one(Board)
        ghost = Ghost(player=placer, card=cursor.card) if placer is not None and cursor.card is not None else None
        board.show(game, selected=cursor.column if placer is not None else None, ghost=ghost)
        self.query_one(Scoreboard).show(game)
        self._show_banner(placer)
        hand = self.query_one(HandBar)
        hand.display = True
        seat = game.created.players[game.to_move]
        names = session.names
        failed = self.save_failure
        if failed is not None:  # the game has stopped: nobody is to play, nothing is thinking
            hand.show(
                seat.name,
                seat.color,
                game.hands[game.to_move],
                None,
                Text(
                    _("Game stopped: {reason} · q leaves (it says how to go on)").format(reason=failed.reason),
                    style=Style(color=ERROR, bold=True),
                ),
                active=False,
                names=names,
            )
        elif game.over:
            hand.show(
                seat.name,
                seat.color,
                [],
                None,
                hint_text(_("Game over: e for the results, q to leave")),
                active=False,
                names=names,
            )
        elif placer is not None:
            hand.show(seat.name, seat.color, game.hands[placer], cursor.card, self._advice(), active=True, names=names)
        else:
            hand.show(
                seat.name,
                seat.color,
                game.hands[game.to_move],
                None,
                self._waiting_line(game),
                active=False,
                names=names,
            )
        self._show_round_bar()
        self._bindings_changed()
        self._call_turn()

    def _call_turn(self) -> None:
        """At a shared table, call this side's turn the moment the table asks for it, whatever is
        on screen (a round's summary being read, a dialog, the help, the results): the bell, the
        desktop notification, and a browser tab's title (told whenever it changes)."""
        presence = self.session.presence()
        if presence is None:
            return
        flow = self.flow
        if (self.bell or self.notify_on_turn) and flow.turn_begins():
            if self.bell:
                self.app.bell()
            if self.notify_on_turn:
                self._notify_desktop(turn_notification(presence.table))
        if self.in_browser:
            self._tell_page_turn(flow.my_turn())

    def _tell_page_turn(self, turn: bool) -> None:
        """A browser tab's page shows this side's turn at a shared table in its title and icon
        (``dvtui web``'s page, told through textual-serve), so a person in another tab sees it;
        told when it changes only."""
        if turn != self._page_turn:
            self._page_turn = turn
            tell_page(self.app, {"type": PAGE_TURN, "turn": turn})

    def _notify_desktop(self, sequence: str) -> None:
        """Write a notification's escape sequence (:mod:`dvtui.app.notify`) to the terminal, as
        :meth:`App.bell` writes its BEL: straight to the driver, between two frames."""
        app = self.app
        if not app.is_headless and app._driver is not None:
            app._driver.write(sequence)

    def _waiting_line(self, game: Game) -> Text:
        """The line beside the hand of a seat this keyboard does not play: a bot thinking, or at a
        shared table the seat's state."""
        session = self.session
        if session.deciding:
            return hint_text(_("your move is on its way…"))
        presence = session.presence()
        if presence is not None and (presence.left is not None or not session.is_bot(game.to_move)):
            return waiting_line(presence, game, self._may_stand_in())
        seat = game.created.players[game.to_move]
        level = bot_level_name(seat.bot) if seat.bot else _("bot")
        return hint_text(_("{name} ({bot}) is thinking…").format(name=seat.name, bot=level))

    def _may_stand_in(self) -> bool:
        """This side may let a bot stand in (seated at a shared table, the game still going)."""
        return self.flow.seated_at_table() and not self.session.game.over

    def _show_banner(self, human: int | None) -> None:
        """At a shared table, who is there; with several people at one keyboard, whose turn it
        is and what the person before did (and whether they can still take it back)."""
        banner = self.query_one(Banner)
        session = self.session
        presence = session.presence()
        if presence is not None:
            banner.display = True
            banner.show(presence_line(presence, session.game))
            return
        if human is None or len(session.humans) < 2:
            banner.display = False
            return
        names = session.names
        last = next(
            (
                s.placed
                for s in reversed(session.standing_placements())
                if s.placed.player != human and not session.is_bot(s.placed.player)
            ),
            None,
        )
        line = handover_line(names, human, last, session.game.round, session.undo_player())
        banner.display = True
        banner.show(colour_names(line, names, [s.color for s in session.game.created.players]))

    def _show_round_bar(self, status: Text | None = None, game: Game | None = None) -> None:
        session = self.session
        game = game or session.game
        presence = session.presence()
        failed = self.save_failure
        if status is None:
            seat = game.created.players[game.to_move]
            if failed is not None:  # the status itself (the right end is cut first at 80 columns)
                status = Text(
                    _("✗ NOT SAVED: {reason}").format(reason=failed.reason.removeprefix("the ")),
                    style=Style(color=ERROR, bold=True),
                )
            elif presence is not None:
                status = turn_status(
                    presence,
                    game,
                    mine=session.human_to_move() is not None,
                    bot=session.is_bot(game.to_move),
                    may_stand_in=self._may_stand_in(),
                    now=time.monotonic(),
                )
            elif game.over:
                status = Text(_("Game over"), style=Style(bold=True))
            elif session.human_to_move() is not None:
                status = Text(_("▶ {name} to play").format(name=seat.name), style=seat_emphasis(seat.color))
            else:
                thinking = _("{name} is thinking…").format(name=seat.name)
                status = Text(thinking, style=Style(color=seat_color(seat.color)))
        if presence is not None:
            right = connection_words(presence)
        else:
            right = _("not saved ") if not session.saving or failed is not None else _("✓ saved ")
        self.query_one(RoundBar).show(game, status, right)

    @property
    def save_failure(self) -> SaveFailed | None:
        """The save that failed, once one has: the game has stopped (the session refuses the rest)."""
        return self.session.save_failure

    def _advice(self) -> Text:
        """The line beside the human's hand: what to do, or what the chosen placement gives."""
        game = self.session.game
        player = game.to_move
        cursor = self.flow.cursor
        if cursor.hint is not None:
            return Text(cursor.hint, style=Style(color=GOLD))
        if cursor.card is None:
            return hint_text(_("pick a card 1-6, column a-g, then ⏎"))  # one line at the smallest width
        outcome = preview(game, player, Placement(cursor.card, cursor.column))
        said = _("{card} → {column}: ").format(card=cursor.card, column=column_label(cursor.column))
        text = styled(said, Style(bold=True))
        if outcome is not None:
            text.append(placement_outcome(outcome, player, self.session.names))
        return text

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
        elif isinstance(news, Spoken):
            self._spoken(news)
        elif isinstance(news, Redealt):
            self._redealt(news.session)
            return
        self._call_turn()  # (a turn that came while something else is on screen is called now)

    def _spoken(self, news: Spoken) -> None:
        """A line said at the table goes to the log; and to a toast when the log is not on screen
        (no room for it at 80x24 with four players or more, or another screen is up), so it is
        not missed until someone thinks of pressing Tab."""
        speaker = news.speaker if news.seat is None else shown_as(self.session.names[news.seat], news.speaker)
        log = self.query_one(EventLog)
        log.say(speaker, news.text, spectator=news.seat is None)
        panel = log.parent.region if isinstance(log.parent, Widget) else log.region  # (the log's rows past it are cut)
        if self.app.screen is not self or not log.display or not log.region.intersection(panel).height:
            self.notify(f"{speaker}: {news.text}", title=_("Said at the table"), timeout=8, markup=False)

    def _redealt(self, session: GameSession) -> None:
        """The table dealt its rematch: back to this screen (from the end screen, say), playing it."""
        while self.app.screen is not self and self in self.app.screen_stack:
            self.app.pop_screen()
        game = session.game
        first = game.created.players[game.created.first_player].name
        said = _("The table deals its next game: {name} plays first.").format(name=first)
        self.notify(said, title=_("Rematch"), timeout=6, markup=False)
        presence = session.presence()
        held = self._seat_held
        if presence is not None and presence.seat is None and held is not None and held < game.n:
            # resigned (watching since) or left: the new game's seat is theirs again, j takes it here
            name = game.created.players[held].name
            command = f"dvtui join {presence.table} --as {shlex.quote(name)}"
            offer = _("{name}'s seat is yours again in this game: to play it, leave (q) and sit there again: "
                      "{command}").format(name=name, command=command)  # fmt: skip
            if seat_to_take(presence, game, held) is not None:
                offer = _("{name}'s seat is yours again in this game: j takes it, here.").format(name=name)
            self.notify(offer, title=_("Your seat"), timeout=30, markup=False)
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
        self._hold_seat()
        if news.notice is not None:
            self.notify(news.notice, title=_("The table says"), severity="warning", timeout=8)
        presence = self.session.presence()
        above = self.app.screen
        if isinstance(above, EndScreen) and above.session is self.session:
            above.table_changed()
        elif presence is not None:
            self._tell_rematch(presence)
        if presence is not None and presence.left is not None and not self._told_left:
            self._told_left = True
            said = _("{table}: {why}. q leaves; {rejoin} comes back here.")
            self.notify(
                said.format(table=self.session.abilities.table, why=presence.left, rejoin=presence.rejoin),
                title=_("Left the table"),
                severity="error",
                timeout=30,
            )
        if presence is not None and presence.stopped is not None and not self._told_stopped:
            self._told_stopped = True  # the toast goes; the log keeps who ended the table, and why
            self.query_one(EventLog).note(_("The table has stopped: {why}").format(why=presence.stopped))
        resolution = self.flow.resolution
        if resolution is not None:
            self._show_step_bar()
            self._bindings_changed()  # who is there may have changed what the footer offers
        elif not self.flow.waiting:
            self.refresh_view()

    def _tell_rematch(self, presence: Presence) -> None:
        """Away from the results, say once that somebody proposed a rematch (the results say the rest)."""
        vote = presence.rematch
        proposer = None if vote is None else vote.by
        if proposer is not None and proposer != self._rematch_told and proposer != presence.seat:
            said = (
                _("{name} proposes a rematch at this table (e: the results, where r accepts).")
                if self.session.abilities.table_rematch
                else _("{name} proposes a rematch at this table (e: the results).")
            )
            self.notify(said.format(name=self.session.names[proposer]), title=_("Rematch"), timeout=10,
                        markup=False)  # fmt: skip
        self._rematch_told = proposer

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

    def _start_bot(self, token: int) -> None:
        flow = self.flow
        seat = flow.bot_to_start()
        if token != flow.token or seat is None:
            return
        bot = self.session.bots[seat]
        assert bot is not None
        spec, seed = bot
        flow.thinking = seat
        self._think(token, spec, self.session.game.copy(), seed)

    # not exclusive: the next bot starts while the worker whose answer was just played is still
    # ending, and cancelling that one would report a finished search as cancelled
    @work(thread=True, group="bot", exit_on_error=False)
    def _think(self, token: int, spec: BotSpec, game: Game, seed: int) -> None:
        """A bot's move for the position ``token`` names, in a thread, posted as :class:`BotPlaced`.
        Cancelling the worker (an undo, a branch, the app closing cancels every worker) stops a
        searching bot: the thread cannot be killed, and the process would wait for it."""
        worker = get_current_worker()
        try:
            placement = bot_fn(spec, worker.cancelled_event)(game, seed)
        except Stopped:
            return  # told to stop: nothing to report
        except Exception as e:  # reported on screen, as the worker's message, not raised in a thread
            self.post_message(ThinkingFailed(token, "bot", e))
            return
        if not worker.is_cancelled:
            self.post_message(BotPlaced(token, placement))

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)  # a second h replaces the first
    def _ask_hint(self, token: int, game: Game, seed: int) -> None:
        """The hint: the judgement of the position ``token`` names (the analysis's), in a thread, posted as
        :class:`HintReady` (stopped like :meth:`_think`)."""
        worker = get_current_worker()
        try:
            suggestion = advise(game, seed, stop=worker.cancelled_event)
        except Stopped:
            return
        except Exception as e:
            self.post_message(ThinkingFailed(token, "hint", e))
            return
        if not worker.is_cancelled:
            self.post_message(HintReady(token, suggestion))

    @on(BotPlaced)
    def _bot_placed(self, message: BotPlaced) -> None:
        flow = self.flow
        if message.token != flow.token or flow.thinking is None:
            return  # about a position (or a game, before a branch) that is gone
        self._decide(partial(self.session.place, message.placement, flow.thinking))

    @on(HintReady)
    def _hint_ready(self, message: HintReady) -> None:
        if message.token != self.flow.token or self.flow.placer() is None:
            return
        s = message.suggestion
        self.flow.hinted(s.placement, s.gain, s.win)
        self.refresh_view()

    @on(ThinkingFailed)
    def _thinking_failed(self, message: ThinkingFailed) -> None:
        if message.token != self.flow.token:
            return  # not this game's news
        said = _("bot failed: {error}") if message.what == "bot" else _("hint failed: {error}")
        self.notify(said.format(error=message.error), severity="error", timeout=10)

    def _stop_thinking(self) -> None:
        """Stop the searches of a position that is gone (their answers would be ignored anyway):
        the cores go back to the game at hand."""
        self.workers.cancel_group(self, "bot")
        self.workers.cancel_group(self, "hint")

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _decide(self, hand_in: partial[None]) -> None:
        """Hand a decision to the session; it comes back as news (a RuleError: nothing was sent)."""
        try:
            hand_in()
        except RuleError as e:
            self.notify(str(e), severity="warning")
            return
        self.workers.cancel_group(self, "hint")
        self.flow.hand_in()
        self._show_handed()

    def _show_handed(self) -> None:
        """While the decision is on its way, only the hand's line and the keys change (the board
        keeps the chosen card where it goes): the move is drawn whole once it stands, and a whole
        redraw meanwhile would only delay that one."""
        game = self.session.game
        seat = game.created.players[game.to_move]
        self.query_one(HandBar).show(seat.name, seat.color, game.hands[game.to_move], None,
                                     self._waiting_line(game), active=False, names=self.session.names)  # fmt: skip
        self._bindings_changed()

    # -- the resolution ------------------------------------------------------------------------

    def _show_step(self) -> None:
        resolution = self.flow.resolution
        assert resolution is not None
        step = resolution.step
        session = self.session
        names = session.names
        colors = [s.color for s in session.game.created.players]
        board = self.query_one(Board)
        board.show(step.game, focus=step.column, results=step.results)
        self.query_one(Scoreboard).show(step.game, turn=-1)
        shown = resolution.log_until(step.event)
        if shown:
            self.query_one(EventLog).add(shown, session.game)
        event = step.event
        self._show_step_bar()
        banner_text = moment_banner(event, names, colors, session.game.rounds)
        summary = isinstance(event, RoundEnded)
        holds = self.flow.holds_summary
        if summary:
            if holds:
                banner_text.append(_("  ⏎ next"), style=Style(color=MUTED))
            scores = step.game.scores()
            before = resolution.start_scores or [0] * len(scores)
            gains = round_gains(step.results.values(), len(scores))
            for p, (taken, returned) in enumerate(gains):
                line = gains_line(names[p], scores[p] - before[p], scores[p], taken, returned)
                banner_text.append("\n")
                banner_text.append_text(colour_names(line, names, colors))
        if not summary and not self.has_class("-narrow"):  # at 80 columns it would wrap; the footer has the keys
            banner_text.append(_("   ⏎: next · s: skip"), style=Style(color=MUTED))
        self.query_one(HandBar).display = False
        banner = self.query_one(Banner)
        banner.display = True
        banner.show(banner_text, summary=summary)
        self._bindings_changed()
        self._stop_timer()
        if summary and holds:
            return  # people read it in their own time: a key or a click goes on
        if self.pace.step_delay is not None:
            self._timer = self.set_timer(self.pace.step_delay * linger(event), self.action_next_step)

    def _show_step_bar(self) -> None:
        """The header over a resolution step: the step, or (at a shared table) this side's turn
        when the table already asks for it, with its clock, or that the table has stopped or this
        side has left it (said for good); the board shows the step meanwhile."""
        resolution = self.flow.resolution
        assert resolution is not None
        session = self.session
        presence = session.presence()
        mine = self.flow.my_turn()
        if presence is not None and (mine or presence.stopped is not None or presence.left is not None):
            status = turn_status(presence, session.game, mine=mine, bot=False, may_stand_in=self._may_stand_in(),
                                 now=time.monotonic())  # fmt: skip
            self._show_round_bar(status, session.game)
            return
        step = resolution.step
        self._show_round_bar(moment_status(step.event, _("Recap · ") if resolution.recap else ""), step.game)

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

    def _bindings_changed(self) -> None:
        """Refresh the footer only when what it offers changes (it is rebuilt each time). Called
        whenever the screen is redrawn, whatever changed: a move, or (at a shared table) who is there."""
        state = self._binding_key()
        if state != self._binding_state:
            self._binding_state = state
            self.refresh_bindings()

    def _binding_key(self) -> tuple[bool | None, ...]:
        """What the footer offers: every action of the screen's keys, as :meth:`check_action` allows it now."""
        return tuple(self.check_action(c.name, ()) for c in SHARED_TABLE.commands if c.keys)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("cannot_undo", "no_hint"):
            return True  # reached only when undo (hint) is off: the same key, listed after it
        if action == "sit":
            return seat_to_take(self.session.presence(), self.session.game, self._seat_held) is not None
        return self.flow.allowed(action)

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

    def action_no_hint(self) -> None:
        """``h`` when no hint can be asked for now: why, if it is the table's choice (on someone
        else's turn, or during a resolution, there is nothing to say)."""
        refused = self.session.abilities.hints
        if refused is not None:
            self.notify(refused, severity="information")

    def action_hint(self) -> None:
        player = self.flow.placer()
        if player is None or self.session.abilities.hints is not None:
            return
        self.flow.cursor.hint = _("hint: the strong bot is thinking…")
        self.refresh_view()
        self._ask_hint(self.flow.token, self.session.game.copy(), self.session.hint_seed(player))

    def action_stand_in(self) -> None:
        """``a``: let a bot play each seat whose owner is away, until they come back."""
        presence = self.session.presence()
        away = presence.away() if presence is not None else []
        if not away:
            self.notify(_("Nobody is away."), severity="information")
            return
        for seat in away:
            self.session.stand_in(seat, STAND_IN_LEVEL)
        who = ", ".join(self.session.names[s] for s in away)
        said = _("A greedy bot plays for {names} until they join (once they have been away a little while)."
                 ).format(names=who)  # fmt: skip
        self.notify(said, title=_("Stand-in"), timeout=5)

    def action_start(self) -> None:
        """``s`` while the table waits for people: deal now (the table refuses anyone but its opener)."""
        self.session.start_table()

    def action_chat(self) -> None:
        """``m``: a line to everyone at the table; it shows in the log when the table says it."""
        table = self.session.abilities.table or ""
        self.app.push_screen(SayLine(table, MAX_CHAT_CHARS), self._said)

    def _said(self, text: str | None) -> None:
        if text:
            self.session.say(text)

    def action_whole_column(self) -> None:
        """``v``: the chosen column (or the one being resolved) whole, past the cards the board has room for."""
        board = self.query_one(Board)
        model = shown_column(board.models, self.flow.cursor.column)
        if model is not None:
            self.app.push_screen(ColumnScreen(model, board.looks, self.session.names))

    def action_sit(self) -> None:
        """``j``: take back, in place, the seat this side resigned, in the table's new game (its rematch)."""
        seat = seat_to_take(self.session.presence(), self.session.game, self._seat_held)
        if seat is not None:
            self.session.sit(seat)

    def action_resign(self) -> None:
        """``r``: give one's seat up to a bot for the rest of the game, asked first."""
        presence = self.session.presence()
        if presence is None or presence.seat is None:
            return
        name = self.session.names[presence.seat]
        question = Confirm(
            _("Resign {name}'s seat at table {table}?").format(name=name, table=presence.table),
            _("A bot plays the seat to the end of the game, marked as standing in, and nobody takes it back. "
              "You stay at the table, watching."),
            _("resign"),
        )  # fmt: skip
        self.app.push_screen(question, self._resign_answered)

    def _resign_answered(self, resign: bool | None) -> None:
        if resign and self.flow.allowed("resign"):  # (the game may have ended meanwhile)
            self.session.resign()

    def action_close_table(self) -> None:
        """``x`` (the table's opener): end the table for everyone, asked first."""
        table = self.session.abilities.table or ""
        question = Confirm(
            _("End table {table} for everyone?").format(table=table),
            _("Nobody plays on: its game is kept, unfinished, and the name is free for a new table."),
            _("end the table"),
        )  # fmt: skip
        self.app.push_screen(question, self._close_answered)

    def _close_answered(self, close: bool | None) -> None:
        if close and self.flow.allowed("close_table"):
            self.session.close_table()

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

        presence = session.presence()
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
        self._told_left = False
        self._told_stopped = False
        self._rematch_told = None
        self._hold_seat()
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
        if self.session.presence() is not None and cast(GameHost, self.app).back_to_menu():
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
