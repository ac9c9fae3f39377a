"""The play session (no Textual): every decision is on disk before the next is asked for, a failed
save leaves the game as it was, undo takes back your move and the bots' answers, never another
human's; and the resolution is replayed column by column from the state before the last move."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from dvtui.bots import bot_fn
from dvtui.engine import (
    CardPlaced,
    ColumnResolved,
    Game,
    GameCreated,
    NothingToUndo,
    Placement,
    RoundEnded,
    RuleError,
    new_game,
)
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession, Saver, preview
from dvtui.replay.steps import resolution_steps
from dvtui.store import GameWriter, SaveError, read_game


def start(tmp_path: Path, players: str = "Ana,bot:greedy,bot:greedy", seed: int = 3) -> PlaySession:
    return PlaySession.start(new_game(parse_players(players), seed=seed), tmp_path / "g.dvr")


def bot_move(session: PlaySession) -> None:
    bot = session.bots[session.game.to_move]
    assert bot is not None
    spec, seed = bot
    session.place(bot_fn(spec)(session.game.copy(), seed))


def test_a_placement_is_in_the_file_when_place_returns(tmp_path: Path) -> None:
    session = start(tmp_path)
    move = session.place(Placement(5, 2), player=0)
    assert move.events == [CardPlaced(round=1, player=0, column=2, card=5)]  # the decision alone: no resolution
    assert read_game(tmp_path / "g.dvr").events[1:] == move.events
    assert 5 in move.before.hands[0] and 5 not in session.game.hands[0]


def test_a_failed_save_leaves_the_game_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = start(tmp_path)
    assert session.writer is not None

    def fail(events: object) -> None:
        raise SaveError("disk full")

    monkeypatch.setattr(session.writer, "append", fail)
    with pytest.raises(SaveError):
        session.place(Placement(5, 2), player=0)
    assert session.game.placements == [] and 5 in session.game.hands[0]
    assert len(session.events) == 1


def test_undo_takes_back_the_humans_move_and_the_bots_answers(tmp_path: Path) -> None:
    session = start(tmp_path)
    session.place(Placement(5, 2), player=0)
    bot_move(session)
    bot_move(session)
    assert session.undo_player() == 0
    undone = session.undo(0).events
    assert [u.player for u in undone] == [2, 1, 0]
    assert session.game.placements == [] and session.game.to_move == 0
    assert len(read_game(tmp_path / "g.dvr").events) == 1 + 3 + 3
    with pytest.raises(NothingToUndo):
        session.undo(0)


def test_undo_never_takes_back_another_humans_move(tmp_path: Path) -> None:
    session = start(tmp_path, "Ana,Ben,bot:greedy")
    session.place(Placement(5, 2), player=0)
    session.place(Placement(4, 3), player=1)
    assert session.undo_player() == 1  # a bot is to move: the last human to have placed
    with pytest.raises(NothingToUndo, match="Ben has placed since"):
        session.undo(0)
    assert [u.player for u in session.undo(1).events] == [1]


def test_undo_does_not_cross_a_resolution(tmp_path: Path) -> None:
    session = start(tmp_path)
    while session.game.round == 1:
        if session.human_to_move() is not None:
            hand = session.game.hands[0]
            session.place(Placement(hand[0], 6), player=0)
        else:
            bot_move(session)
    assert session.game.placements == []
    with pytest.raises(NothingToUndo, match="never crosses a resolution"):
        session.undo(0)


def test_the_preview_is_the_engines_projection(make_game: Callable[..., Game]) -> None:
    game = make_game(3, {0: ["house-300"]})
    outcome = preview(game, 0, Placement(6, 0))
    assert outcome is not None and outcome.awards[0].player == 0 and outcome.awards[0].card == "house-300"
    assert preview(game, 1, Placement(6, 0)) is None  # not that player's turn: no preview


def test_the_preview_hides_only_a_rule_refusal(make_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch) -> None:
    """An illegal placement has no preview; anything else the engine raises is a bug, and shows."""

    def broken(self: Game, placement: Placement, **_: object) -> None:
        raise ZeroDivisionError

    game = make_game(3, {0: ["house-300"]})
    monkeypatch.setattr(Game, "place", broken)
    with pytest.raises(ZeroDivisionError):
        preview(game, 0, Placement(6, 0))


def test_the_resolution_is_replayed_column_by_column(make_created: Callable[..., GameCreated]) -> None:
    game = Game(make_created(3))
    for _ in range(14):
        p = game.to_move
        game.place(Placement(game.hands[p][0], p))  # each player spreads their cards from column p
    before = game.copy()
    events = game.place(Placement(game.hands[game.to_move][0], 1))
    steps = resolution_steps(before, events)
    assert [s.column for s in steps] == [0, 1, 2, 3, 4, 5, 6, None]
    assert isinstance(steps[-1].event, RoundEnded) and len(steps[-1].results) == 7
    for step in steps[:-1]:
        assert isinstance(step.event, ColumnResolved)
        assert sorted(step.results) == list(range(step.event.column + 1))
    # the last step shows the table after the seventh column, before the cards go back to hand
    assert steps[-1].game.columns == game.columns and steps[-1].game.placements
    assert steps[-1].game.scores() == game.scores()


def test_resuming_a_torn_file_says_what_was_recovered(tmp_path: Path) -> None:
    session = start(tmp_path)
    session.place(Placement(5, 2), player=0)
    session.close()
    path = tmp_path / "g.dvr"
    with open(path, "ab") as f:
        f.write(b'{"type":"card_placed","seq":2,"round":1,"pl')  # the writer died mid-line
    resumed = PlaySession.resume(read_game(path))
    assert any("torn" in notice for notice in resumed.notices)
    assert len(resumed.game.placements) == 1
    bot_move(resumed)
    resumed.close()
    assert read_game(path).torn is None and len(read_game(path).game.placements) == 2


@pytest.mark.parametrize("how", ["start", "resume"])
def test_a_session_that_cannot_be_made_leaves_its_game_unlocked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The writer takes the game's lock first; whatever fails after it must not keep the lock
    (a stale lock would say the game is being played elsewhere)."""
    from dvtui.play import session as session_module
    from dvtui.store import lock_path

    path = tmp_path / "g.dvr"
    if how == "resume":
        start(tmp_path).close()

    def broken(game: Game) -> list[None]:
        raise ValueError("no bots today")

    monkeypatch.setattr(session_module, "bot_specs", broken)
    with pytest.raises(ValueError, match="no bots today"):
        if how == "start":
            PlaySession.start(new_game(parse_players("Ana,bot:greedy,bot:greedy"), seed=3), path)
        else:
            PlaySession.resume(read_game(path))
    assert not lock_path(path).exists()
    monkeypatch.undo()
    PlaySession.resume(read_game(path)).close()  # and the game can be opened again at once


def test_bots_alone_save_each_move_and_stop_between_two(tmp_path: Path) -> None:
    """What ``resume --headless`` plays with: asked to stop between two decisions, the bots leave
    every decision so far in the file; played on later, the game ends byte for byte as one never
    stopped (apart from the times)."""
    from ..support.files import reference, strip_at
    from ..support.positions import BOTS3, created

    path = tmp_path / "g.dvr"
    session = PlaySession.start(created(BOTS3, seed=5), path)
    asked: list[int] = []

    def stop() -> bool:  # asked before the first decision and after each one saved
        asked.append(len(read_game(path).events))
        return len(asked) > 5

    assert session.play_bots(stop) is False
    assert asked == [1, 2, 3, 4, 5, 6]  # each decision was on disk when stop() was asked
    assert read_game(path).events == session.events and len(session.events) == 6
    session.close()
    again = PlaySession.resume(read_game(path))
    assert again.play_bots(lambda: False) is True and again.game.over
    again.close()
    assert strip_at(path.read_bytes()) == strip_at(reference(BOTS3, seed=5))


def test_bots_alone_stop_where_a_person_is_to_move(tmp_path: Path) -> None:
    session = start(tmp_path, "bot:greedy,Ana,bot:greedy")
    assert session.play_bots(lambda: False) is True
    assert session.human_to_move() == 1 and len(read_game(tmp_path / "g.dvr").events) == 2


def test_a_decision_comes_back_with_the_lines_that_hold_it(tmp_path: Path) -> None:
    session = start(tmp_path)
    placed = session.place(Placement(5, 2), player=0)
    bot_move(session)
    undone = session.undo(0)
    file = (tmp_path / "g.dvr").read_bytes().splitlines(keepends=True)
    assert placed.lines == file[1:2]
    assert len(undone.events) == 2 and undone.lines == file[-2:]
    assert undone.before.placements and not undone.after.placements


def test_what_is_decided_elsewhere_comes_in_through_take(tmp_path: Path) -> None:
    here = start(tmp_path)
    there = PlaySession(here.game.copy(), None, None, list(here.events))
    move = there.place(Placement(5, 2), player=0)
    with pytest.raises(ValueError, match="lines"):  # a saved game never gets ahead of its file
        here.take(move.events)
    assert here.game.placements == []
    lines = here.write(move.events)
    taken = here.take(move.events, lines)
    assert taken.after is here.game and here.game.placements == there.game.placements
    assert here.events == there.events and taken.lines == lines
    assert read_game(tmp_path / "g.dvr").events == here.events
    with pytest.raises(RuleError):  # the same placement twice: refused, nothing changed
        here.take(move.events, lines)
    assert here.events == there.events and here.game is taken.after


def test_a_game_held_again_writes_on_through_its_rewriter(tmp_path: Path) -> None:
    made: list[int] = []

    def rewriter(lines: int) -> Saver:
        made.append(lines)
        return GameWriter.resume(read_game(tmp_path / "g.dvr"))

    first = start(tmp_path)
    first.close()
    session = PlaySession(first.game, None, None, list(first.events), rewriter=rewriter)
    session.write_again(1)
    session.place(Placement(5, 2), player=0)
    session.close()
    assert made == [1] and read_game(tmp_path / "g.dvr").events == session.events
    with pytest.raises(ValueError):
        first.write_again(1)
