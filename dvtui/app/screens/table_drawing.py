"""The live table's drawing: the position, the hand's line, the banner and the round's bar, from
the session and the turn's :class:`~dvtui.app.flow.TableFlow`, and a resolution's step.

:class:`TableDrawing` is :class:`~dvtui.app.screens.table.TableScreen`'s base: it draws what the
screen holds and decides nothing (the screen reacts to the session's news, keys and workers).
"""

from __future__ import annotations

import time

from rich.style import Style
from rich.text import Text
from textual.widgets import Footer

from ...describe import bot_level_name, column_label, gains_line, handover_line, placement_outcome, round_gains
from ...engine import Event, Game, Placement, RoundEnded
from ...i18n import _
from ...play.face import GameSession, presence_of
from ...play.session import preview
from ...store import SaveFailed
from ..config import Pace
from ..flow import TableFlow
from ..keys import SHARED_TABLE
from ..spoken import SpokenScreen
from ..theme import ERROR, GOLD, MUTED, seat_color
from ..widgets.board import Board, Ghost
from ..widgets.faces import seat_emphasis, styled
from ..widgets.hand import HandBar, hint_text
from ..widgets.panels import Banner, EventLog, RoundBar, colour_names
from ..widgets.presence import connection_words, presence_line, turn_status, waiting_line
from ..widgets.scoreboard import Scoreboard
from ..widgets.table_view import TableLayout, apply_layout, moment_banner, moment_status, table_layout


class TableDrawing(SpokenScreen[None]):
    """What the table screen draws, from what it holds (set by the screen)."""

    session: GameSession
    flow: TableFlow
    pace: Pace
    bell: bool
    notify_on_turn: bool
    in_browser: bool
    _binding_state: tuple[bool | None, ...]

    def _layout(self, width: int, height: int) -> TableLayout:
        """The banner has a line under the hand when several people share this keyboard, and at a
        shared table (it says who is there)."""
        session = self.session
        row = presence_of(session) is not None or len(session.humans) >= 2
        return table_layout(width, height, session.game.n, banner_row=row)

    def _relayout(self, width: int, height: int) -> None:
        """Side panel when there is room, everything stacked at 80x24; cards grow with height."""
        layout = self._layout(width, height)
        apply_layout(self, layout)
        self.query_one(Footer).show_command_palette = layout.wide

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

    def notify_desktop(self, sequence: str) -> None:
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
        presence = presence_of(session)
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
        presence = presence_of(session)
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
        presence = presence_of(session)
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

    def _show_handed(self) -> None:
        """While the decision is on its way, only the hand's line and the keys change (the board
        keeps the chosen card where it goes): the move is drawn whole once it stands, and a whole
        redraw meanwhile would only delay that one."""
        game = self.session.game
        seat = game.created.players[game.to_move]
        self.query_one(HandBar).show(seat.name, seat.color, game.hands[game.to_move], None,
                                     self._waiting_line(game), active=False, names=self.session.names)  # fmt: skip
        self._bindings_changed()

    def _show_step_bar(self) -> None:
        """The header over a resolution step: the step, or (at a shared table) this side's turn
        when the table already asks for it, with its clock, or that the table has stopped or this
        side has left it (said for good); the board shows the step meanwhile."""
        resolution = self.flow.resolution
        assert resolution is not None
        session = self.session
        presence = presence_of(session)
        mine = self.flow.my_turn()
        if presence is not None and (mine or presence.stopped is not None or presence.left is not None):
            status = turn_status(presence, session.game, mine=mine, bot=False, may_stand_in=self._may_stand_in(),
                                 now=time.monotonic())  # fmt: skip
            self._show_round_bar(status, session.game)
            return
        step = resolution.step
        self._show_round_bar(moment_status(step.event, _("Recap · ") if resolution.recap else ""), step.game)

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
        return self.flow.allowed(action)

    def _draw_step(self) -> Event:
        """Draw the resolution's step (the board, the scores, the banner that says it); its event."""
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
        return event
