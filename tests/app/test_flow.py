"""The turn at the live table without a screen (milliseconds, no Pilot): the cursor and whose it
is, what each key may do, a move and its resolution step by step, the round's summary held for
people, moves that come during a resolution waiting their turn, undo giving a person's choice back,
the recap of a resolution left half-shown, and the shared table's bell."""

from __future__ import annotations

from dataclasses import dataclass, field

from dvtui.app.flow import Cursor, TableFlow
from dvtui.bots import bot_fn, parse_bot
from dvtui.engine import CardPlaced, ColumnResolved, Game, Placement, RoundEnded, new_game
from dvtui.play.face import Abilities, Presence
from dvtui.play.local import LocalSession
from dvtui.play.seats import parse_players
from dvtui.play.session import PlayedMove, PlaySession

ONE = "Ana,bot:greedy,bot:greedy"
HOT_SEAT = "Ana,Bea,Cid"


def session(players: str = ONE, seed: int = 3, first: int = 0) -> LocalSession:
    """A game of this machine saving nothing: a decision is made at once (nobody attached)."""
    created = new_game(parse_players(players), first_player=first, seed=seed)
    return LocalSession(PlaySession(Game(created), None, None, [created]))


def play(s: LocalSession, card: int, column: int) -> PlayedMove:
    """A decision as it stands: what the session tells (a copy of the state before, after)."""
    before = s.game.copy()
    move = s.play.place(Placement(card, column))
    return PlayedMove(move.events, before, s.game.copy())


def bot_move(s: LocalSession) -> PlayedMove:
    return play(s, *bot_fn(parse_bot("greedy"))(s.game.copy(), 1))


def to_round_end(s: LocalSession) -> PlayedMove:
    """Play greedily up to the round's last placement, and return that one (with its resolution)."""
    while True:
        move = bot_move(s)
        if len(move.events) > 1:
            return move


def test_the_keys_place_for_the_person_to_move_and_only_then() -> None:
    s = session()
    flow = TableFlow(s)
    assert flow.placer() == 0
    assert all(flow.allowed(a) for a in ("pick", "step", "column", "place", "hint"))
    assert not flow.allowed("undo") and not flow.allowed("next_step") and not flow.allowed("results")
    flow.arrive(play(s, s.game.hands[0][0], 0))
    assert flow.placer() is None and not flow.allowed("place")  # a bot is to move
    assert flow.bot_to_start() == 1
    assert flow.allowed("undo")  # Ana may take hers back while the bot thinks


def test_a_card_not_in_the_hand_is_refused_in_words_and_columns_wrap() -> None:
    s = session()
    flow = TableFlow(s)
    flow.follow_keyboard()
    hand = s.game.hands[0]
    missing = next(c for c in range(1, 7) if c not in hand) if len(set(hand)) < 6 else None
    card = hand[0]
    assert flow.pick(card) is None and flow.cursor.card == card
    if missing is not None:
        assert flow.pick(missing) == f"Your {missing} is already on the table this round."
    flow.step(-1)
    assert flow.cursor.column == 6  # from A, left wraps to G
    flow.move_to(3)
    flow.step(1)
    assert flow.cursor.column == 4


def test_each_person_at_one_keyboard_starts_afresh_and_one_person_keeps_the_column() -> None:
    s = session(HOT_SEAT, seed=5)
    flow = TableFlow(s)
    flow.follow_keyboard()
    assert flow.cursor == Cursor(player=0)
    flow.pick(s.game.hands[0][0])
    flow.move_to(4)
    flow.arrive(play(s, flow.cursor.card or 0, 4))
    flow.follow_keyboard()
    assert flow.cursor == Cursor(player=1)  # Bea's turn: a fresh cursor

    alone = session()
    flow = TableFlow(alone)
    flow.follow_keyboard()
    flow.move_to(2)
    flow.arrive(play(alone, alone.game.hands[0][0], 2))
    flow.arrive(bot_move(alone))
    flow.arrive(bot_move(alone))
    flow.follow_keyboard()
    assert flow.placer() == 0 and flow.cursor.card is None and flow.cursor.column == 2  # where she left it


def test_undo_gives_the_person_their_choice_back() -> None:
    s = session()
    flow = TableFlow(s)
    flow.follow_keyboard()
    flow.arrive(play(s, 5, 2) if 5 in s.game.hands[0] else play(s, s.game.hands[0][0], 2))
    placed = s.events[-1]
    assert isinstance(placed, CardPlaced)
    flow.arrive(bot_move(s))
    before = s.game.copy()
    flow.arrive(PlayedMove(s.play.undo(0).events, before, s.game.copy()))
    assert flow.placer() == 0
    assert flow.cursor == Cursor(card=placed.card, column=placed.column, player=0)


def test_a_round_is_resolved_step_by_step_and_its_summary_waits_for_people() -> None:
    s = session()
    flow = TableFlow(s)
    last = to_round_end(s)
    shown = flow.arrive(last)
    assert shown is last and flow.resolution is not None
    steps = flow.resolution.steps
    assert isinstance(steps[0].event, ColumnResolved) and isinstance(steps[-1].event, RoundEnded)
    assert flow.allowed("next_step") and flow.allowed("skip") and not flow.allowed("place")
    assert flow.resolution.start_scores == last.before.scores()
    told = flow.resolution.log_until(steps[0].event)
    assert told == [steps[0].event]  # the log tells each derived event as its step appears
    assert flow.skip()  # people play: straight to the summary, which waits
    assert flow.resolution.at_summary
    assert not flow.skip()  # from the summary, on: the caller ends it
    pending = flow.end_resolution()
    assert pending[-1] is steps[-1].event and flow.resolution is None
    assert flow.placer() == s.game.to_move or flow.bot_to_start() == s.game.to_move


def test_bots_alone_do_not_hold_the_summary_and_steps_run_out() -> None:
    s = session("bot:greedy,bot:greedy,bot:greedy")
    flow = TableFlow(s)
    assert flow.bot_to_start() == 0 and flow.placer() is None
    flow.arrive(to_round_end(s))
    assert not flow.holds_summary and not flow.skip()  # nobody reads the summary: skip ends it
    resolution = flow.resolution
    assert resolution is not None
    for _ in range(len(resolution.steps) - 1):
        assert flow.next_step()
    assert not flow.next_step()  # the last step shown: the caller ends the resolution


def test_moves_that_come_during_a_resolution_wait_their_turn_in_order() -> None:
    s = session()
    flow = TableFlow(s)
    flow.arrive(to_round_end(s))
    later = [bot_move(s), bot_move(s)]
    assert [flow.arrive(m) for m in later] == [None, None]
    assert flow.busy() and flow.placer() is None and flow.next_waiting() is None  # not while it is shown
    flow.end_resolution()
    assert flow.next_waiting() is later[0] and flow.next_waiting() is later[1] and flow.next_waiting() is None


def test_every_change_of_position_drops_answers_about_the_old_one() -> None:
    s = session()
    flow = TableFlow(s)
    tokens = [flow.token]
    flow.hand_in()
    tokens.append(flow.token)
    flow.arrive(play(s, s.game.hands[0][0], 0))
    tokens.append(flow.token)
    assert tokens == sorted(set(tokens))


def test_a_resolution_left_half_shown_is_shown_again_on_resume() -> None:
    s = session()
    to_round_end(s)
    flow = TableFlow(s)
    told = flow.recap()
    assert flow.resolution is not None and flow.resolution.recap
    last_placement = max(i for i, e in enumerate(s.events) if isinstance(e, CardPlaced))
    assert told == last_placement + 1
    assert TableFlow(session()).recap() is None  # nothing to show again at a game's start


@dataclass
class AtTable:
    """A session of one seat at a shared table, as far as the flow asks."""

    inner: LocalSession
    seat: int = 0
    seats: list[object] = field(default_factory=list)
    opener: bool = False
    stopped: str | None = None

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    @property
    def abilities(self) -> Abilities:
        return Abilities((self.seat,), table="t", branch="lines", stand_ins=True, close=self.opener, resign=True)

    @property
    def table(self) -> object:
        """A shared table's side: this fake's own ``presence``."""
        return self

    def presence(self) -> Presence:
        return Presence("t", self.seat, [], 0, "connected", None, "dvtui join t", stopped=self.stopped)


def test_the_bell_rings_once_per_turn_and_not_for_ones_own_undo() -> None:
    s = session()
    flow = TableFlow(AtTable(s))  # type: ignore[arg-type]
    assert flow.turn_begins() and not flow.turn_begins()  # once for this position
    flow.arrive(play(s, s.game.hands[0][0], 1))
    assert not flow.turn_begins()  # not her turn
    before = s.game.copy()
    flow.arrive(PlayedMove(s.play.undo(0).events, before, s.game.copy()))
    assert not flow.turn_begins()  # her own undo: no bell
    flow.arrive(play(s, s.game.hands[0][0], 1))
    flow.arrive(bot_move(s))
    flow.arrive(bot_move(s))
    assert flow.turn_begins()


def test_ending_the_table_is_its_openers_and_neither_it_nor_resigning_outlives_the_table() -> None:
    """``x`` only where the table says this side may end it; ``r`` for a seat; neither once the
    table has stopped (closed, say) or its game is over."""
    seat, opener = AtTable(session()), AtTable(session(), opener=True)
    assert not TableFlow(seat).allowed("close_table") and TableFlow(seat).allowed("resign")  # type: ignore[arg-type]
    assert TableFlow(opener).allowed("close_table")  # type: ignore[arg-type]
    stopped = AtTable(session(), opener=True, stopped="ana closed table t")
    assert not TableFlow(stopped).allowed("close_table") and not TableFlow(stopped).allowed("resign")  # type: ignore[arg-type]
    assert not TableFlow(session()).allowed("resign") and not TableFlow(session()).allowed("close_table")
