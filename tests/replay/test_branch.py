"""Branch, "play from here": the new file verifies, shares the parent's prefix exactly,
records where it came from, and the parent's bytes never change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dvtui.app.textual_private import notifications
from dvtui.cli import main
from dvtui.engine import CardPlaced, ColumnResolved, Event, GameCreated, GameEnded, RoundEnded, Seat
from dvtui.replay import Replay
from dvtui.replay.branch import BranchError, branch_file, parent_line, start_branch, take_seat
from dvtui.store import LoadedGame, read_game

from ..support.pilot import press
from ..support.replays import REPLAYS, cut_copies, picture

_DERIVED = (ColumnResolved, RoundEnded, GameEnded)


def decisions(events: list[Event]) -> list[Event]:
    return [e for e in events if not isinstance(e, _DERIVED)]


def _parent(tmp_path: Path, name: str = "game.dvr") -> Path:
    path = tmp_path / name
    shutil.copyfile(REPLAYS / name, path)
    return path


@pytest.mark.parametrize("moment", [0, 1, 24, 25, 26, 39, 94])
def test_a_branch_shares_the_prefix_and_verifies(tmp_path: Path, moment: int) -> None:
    parent = _parent(tmp_path)
    before = parent.read_bytes()
    loaded = read_game(parent)
    replay = Replay(loaded.events)
    out = tmp_path / "branch.dvr"
    branched = branch_file(loaded, replay, moment, out)
    assert parent.read_bytes() == before
    again = read_game(out)  # what `dvtui verify` reads
    assert again.torn is None and not again.notices and not again.game.over
    created = again.created
    assert created.parent == str(parent.resolve()) and created.parent_seq == moment
    assert created.players == loaded.created.players and created.grid == loaded.created.grid
    assert created.seed == loaded.created.seed
    assert again.events[1:] == loaded.events[1 : moment + 1]  # the very same events, derived ones too
    assert decisions(again.events)[1:] == decisions(loaded.events[: moment + 1])[1:]
    assert picture(branched.game) == picture(replay.state_at(moment))
    assert main(["verify", str(out)]) == 0


def test_a_branch_inside_a_resolution_starts_after_it(tmp_path: Path) -> None:
    """Nothing can be decided between a round's last placement and its end: a branch there takes
    the rest of the resolution with it."""
    parent = _parent(tmp_path)
    loaded = read_game(parent)
    replay = Replay(loaded.events)
    branched = branch_file(loaded, replay, 18, tmp_path / "b.dvr")  # column C of round 1
    assert branched.created.parent_seq == 23  # round 1's round_ended
    assert len(branched.events) == 24 and branched.game.round == 2 and not branched.game.placements


def test_no_branch_where_the_game_is_decided(tmp_path: Path) -> None:
    parent = _parent(tmp_path)
    loaded = read_game(parent)
    replay = Replay(loaded.events)
    for moment in (replay.last, replay.last - 1, replay.last - 5):
        with pytest.raises(BranchError, match="every card of the game is placed"):
            branch_file(loaded, replay, moment, tmp_path / f"b{moment}.dvr")
        assert not (tmp_path / f"b{moment}.dvr").exists()


def test_a_branch_never_overwrites(tmp_path: Path) -> None:
    parent = _parent(tmp_path)
    loaded = read_game(parent)
    taken = tmp_path / "taken.dvr"
    taken.write_bytes(b"mine")
    with pytest.raises(Exception, match="already exists"):
        branch_file(loaded, Replay(loaded.events), 5, taken)
    assert taken.read_bytes() == b"mine"


def test_a_branch_of_a_script_counts_the_scripts_lines(tmp_path: Path) -> None:
    """A game script's lines are its decisions: ``parent_seq`` names the script's line."""
    parent = _parent(tmp_path, "script-3p.dvr")
    before = parent.read_bytes()
    loaded = read_game(parent)
    replay = Replay(loaded.events)
    start = replay.round_starts[2]  # round 3: 30 placements so far
    branched = branch_file(loaded, replay, start, tmp_path / "b.dvr")
    assert branched.created.parent_seq == 30
    lines = parent.read_bytes().splitlines()
    assert b'"seq":30,' in lines[30]
    assert decisions(branched.events)[1:] == decisions(loaded.events)[1:31]
    assert parent.read_bytes() == before


def test_a_branch_of_a_torn_file(tmp_path: Path) -> None:
    """The parent's torn tail stays as it is (a replay never repairs); the branch is whole."""
    torn = cut_copies(tmp_path)["torn"]
    before = torn.read_bytes()
    loaded = read_game(torn)
    assert loaded.torn is not None
    replay = Replay(loaded.events)
    branched = branch_file(loaded, replay, 40, tmp_path / "b.dvr")
    assert torn.read_bytes() == before
    assert branched.torn is None and branched.created.parent_seq == 40
    assert parent_line(loaded, replay.last) == loaded.file_lines - 1


def test_start_branch_takes_the_seat_names_the_file_after_it_and_opens_it(tmp_path: Path) -> None:
    """The non-screen half of "play from here": the seat taken (its colour kept), the file named
    after the branch's seats, written, then opened, and what opened it is returned."""
    parent = _parent(tmp_path)
    before = parent.read_bytes()
    loaded = read_game(parent)
    replay = Replay(loaded.events)
    named: list[GameCreated] = []

    def path_for(created: GameCreated) -> Path:
        named.append(created)
        return tmp_path / "mine.dvr"

    opened = start_branch(
        loaded, replay, 25, take=1, player_name="Zed", path_for=path_for, open_game=lambda branch: branch
    )
    assert isinstance(opened, LoadedGame) and opened.path == str(tmp_path / "mine.dvr")
    seat = Seat(name="Zed", kind="human", color=loaded.created.players[1].color)
    assert [c.players[1] for c in named] == [seat] and opened.created.players[1] == seat
    assert opened.created.players[0] == loaded.created.players[0] and opened.created.parent_seq == 25
    assert opened.events[1:] == loaded.events[1:26] and parent.read_bytes() == before


def test_start_branch_keeps_the_seats_without_take(tmp_path: Path) -> None:
    loaded = read_game(_parent(tmp_path))
    opened = start_branch(
        loaded,
        Replay(loaded.events),
        0,
        take=None,
        player_name="Zed",
        path_for=lambda created: tmp_path / "b.dvr",
        open_game=lambda branch: read_game(branch.path),
    )
    assert opened.created.players == loaded.created.players and opened.created.parent_seq == 0


def test_start_branch_removes_its_file_when_it_cannot_be_opened(tmp_path: Path) -> None:
    """A branch that cannot be played (its lock taken, say) leaves no file behind; the parent and
    the error are as they were."""
    parent = _parent(tmp_path)
    before = parent.read_bytes()
    loaded = read_game(parent)
    out = tmp_path / "b.dvr"

    def refuse(branch: LoadedGame) -> None:
        assert out.exists()  # written first, then opened
        raise OSError("locked elsewhere")

    with pytest.raises(OSError, match="locked elsewhere"):
        start_branch(
            loaded, Replay(loaded.events), 5, take=None, player_name="Zed", path_for=lambda c: out, open_game=refuse
        )
    assert not out.exists() and parent.read_bytes() == before
    with pytest.raises(BranchError, match="not a bot's"):  # and a seat that cannot be taken makes no file
        start_branch(
            loaded, Replay(loaded.events), 5, take=7, player_name="Zed", path_for=lambda c: out, open_game=refuse
        )
    assert not out.exists()


async def test_b_in_the_viewer_plays_on_from_the_moment(tmp_path: Path) -> None:
    """The key ``b``: a new file from the moment on screen, played on live at the table (bots
    here: every seat of the example is a bot), the parent untouched."""
    from dvtui.app.screens.branch import BranchScreen
    from dvtui.app.screens.replay import ReplayScreen
    from dvtui.app.screens.table import TableScreen

    from ..support.replays import replay_app

    parent = _parent(tmp_path)
    before = parent.read_bytes()
    out = tmp_path / "branched.dvr"
    app = replay_app(parent, branch_path=lambda created: out)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await press(pilot, "2", "down", "down")  # round 2, two turns in: moment 31
        assert screen.moment == 31
        await press(pilot, "b")
        await pilot.pause()
        assert isinstance(app.screen, BranchScreen)  # every seat is a bot's: whose seats play on?
        await press(pilot, "end", "enter")  # the last choice: keep the seats
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None and app.session.path == out and app.branched == out
        for _ in range(200):  # the bots play on, up to the resolution (it waits for a key)
            await app.workers.wait_for_complete()
            await pilot.pause(0.01)
            if app.screen.flow.resolution:
                break
        assert app.screen.flow.resolution
        await press(pilot, "q")
    assert parent.read_bytes() == before
    branch = read_game(out)
    parent_events = read_game(parent).events
    assert branch.created.parent == str(parent.resolve()) and branch.created.parent_seq == 31
    assert branch.events[1:32] == parent_events[1:32]
    assert len(branch.events) > 32  # it went on from there


async def test_no_branch_at_the_end_of_a_finished_game(tmp_path: Path) -> None:
    from dvtui.app.screens.replay import ReplayScreen

    from ..support.replays import replay_app

    parent = _parent(tmp_path)
    app = replay_app(parent, branch_path=lambda created: tmp_path / "never.dvr")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "end", "b")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.session is None
        assert any("nothing is left to play" in n.message for n in notifications(app))
    assert not (tmp_path / "never.dvr").exists()


async def test_b_hands_the_seat_to_move_to_the_person_at_the_keyboard(tmp_path: Path) -> None:
    """In a game of bots, ``b`` offers the bots' seats, the player to move first: Enter takes it,
    and the table waits for that person's placement, which goes in the new file."""
    from dvtui.app.screens.branch import BranchScreen
    from dvtui.app.screens.table import TableScreen

    from ..support.replays import replay_app

    parent = _parent(tmp_path)
    before = parent.read_bytes()
    out = tmp_path / "mine.dvr"
    loaded = read_game(parent)
    seat = Replay(loaded.events).state_at(31).to_move
    named: list[str] = []  # who the new file is named after (new_save_path uses the players' names)
    app = replay_app(
        parent, branch_path=lambda created: (named.append(created.players[seat].name), out)[1], player_name="Ana"
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await press(pilot, "2", "down", "down", "b")  # moment 31
        await pilot.pause()
        assert isinstance(app.screen, BranchScreen)
        await press(pilot, "enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.session is not None
        game = app.session.game
        assert game.to_move == seat and game.created.players[seat].kind == "human"
        card = game.hands[seat][0]
        await press(pilot, str(card), "a", "enter")
        await pilot.pause()
        await press(pilot, "q")
    assert parent.read_bytes() == before
    branch = read_game(out)
    players = branch.created.players
    assert players[seat].kind == "human" and players[seat].name == "Ana" and players[seat].bot is None
    assert named == ["Ana"]
    assert players[seat].color == loaded.created.players[seat].color
    assert [p for i, p in enumerate(players) if i != seat] == [
        p for i, p in enumerate(loaded.created.players) if i != seat
    ]
    assert branch.events[1:32] == loaded.events[1:32]  # the prefix, whoever sits where
    mine = branch.events[32]
    assert isinstance(mine, CardPlaced) and (mine.player, mine.card, mine.column) == (seat, card, 0)
    assert main(["verify", str(out)]) == 0


async def test_escape_in_the_seat_choice_makes_no_branch(tmp_path: Path) -> None:
    from dvtui.app.screens.replay import ReplayScreen

    from ..support.replays import replay_app

    app = replay_app(_parent(tmp_path), branch_path=lambda created: tmp_path / "never.dvr")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "right", "b")
        await pilot.pause()
        await press(pilot, "escape")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.session is None
    assert not (tmp_path / "never.dvr").exists()


def test_taking_a_seat_keeps_its_colour_and_makes_the_name_unique() -> None:
    loaded = read_game(REPLAYS / "game.dvr")
    players = loaded.created.players
    taken = take_seat(players, 1, "Bot 1")
    assert taken[1] == Seat(name="Bot 1 (you)", kind="human", color=players[1].color)
    assert taken[0] == players[0] and taken[2] == players[2]
    assert take_seat(players, 2, "  ")[2].name == "Player"
    with pytest.raises(BranchError, match=r"^seat 2 is not a bot's"):  # as people count seats
        take_seat(taken, 1, "Ana")  # a person's seat is not a bot's to take


def test_with_a_person_at_the_table_a_taken_seat_keeps_its_name() -> None:
    """That person plays the bot's seat too (hot-seat): no second person appears at the table."""
    players = read_game(REPLAYS / "game.dvr").created.players
    with_ana = take_seat(players, 0, "Ana")
    both = take_seat(with_ana, 2, "Zed")
    assert both[2] == Seat(name=players[2].name, kind="human", color=players[2].color)
    assert both[0] == with_ana[0] and both[1] == players[1]


async def test_with_a_person_at_the_table_keeping_the_seats_comes_first(tmp_path: Path) -> None:
    from dvtui.app.screens.branch import BranchScreen
    from dvtui.app.screens.table import TableScreen
    from dvtui.bots import bot_fn, parse_bot
    from dvtui.engine import Game, new_game
    from dvtui.play.seats import parse_players
    from dvtui.store import GameWriter

    from ..support.replays import replay_app

    created = new_game(parse_players("Ana,bot:random,bot:random"), seed=11)
    game = Game(created)
    parent = tmp_path / "ana.dvr"
    move = bot_fn(parse_bot("random"))
    with GameWriter.create(parent, created) as writer:
        for _ in range(20):
            writer.append(game.place(move(game, 5)))
    out = tmp_path / "kept.dvr"
    app = replay_app(parent, branch_path=lambda c: out, player_name="Zed")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "end", "b")
        await pilot.pause()
        assert isinstance(app.screen, BranchScreen)
        await press(pilot, "enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await press(pilot, "q")
    assert read_game(out).created.players == created.players  # nobody's seat changed hands


async def test_a_branch_of_a_branch_from_time_travel_on_its_table(tmp_path: Path) -> None:
    """``dvtui replay``, ``b`` (a person takes the seat to move), play a card, ``t`` over that
    game, ``b`` again at its first decision: a second branch, whose parent is the first, played
    on the same table; the first stays as it was, the replayed file is never touched."""
    from dvtui.app.screens.replay import ReplayScreen
    from dvtui.app.screens.table import TableScreen

    from ..support.replays import replay_app

    parent = _parent(tmp_path)
    before = parent.read_bytes()
    first, second = tmp_path / "first.dvr", tmp_path / "second.dvr"
    outs = iter([first, second])
    app = replay_app(parent, branch_path=lambda created: next(outs), player_name="Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "2", "down", "down", "b")  # moment 31
        await pilot.pause()
        await press(pilot, "enter")  # take the seat to move
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen) and app.session is not None
        seat = app.session.game.to_move
        await press(pilot, str(app.session.game.hands[seat][0]), "a", "enter")
        await pilot.pause()
        first_bytes = first.read_bytes()
        await press(pilot, "t")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.live
        await press(pilot, "home", "b")  # a person sits at this table now: keep the seats comes first
        await pilot.pause()
        await press(pilot, "enter")
        await pilot.pause()
        assert app.screen is table and app.session is table.session and table.session.path == second
        await press(pilot, "q")
    assert parent.read_bytes() == before and first.read_bytes() == first_bytes
    again = read_game(second)
    assert again.created.parent == str(first.resolve()) and again.created.parent_seq == 0
    assert again.created.players == read_game(first).created.players
    assert main(["verify", str(first), str(second)]) == 0


async def test_the_branch_starts_at_the_moment_the_question_names(tmp_path: Path) -> None:
    """Time travel follows a live game while the seat question is open; the branch is made from
    the moment the question was asked about, not from wherever the timeline went meanwhile."""
    from dvtui.app.screens.branch import BranchScreen
    from dvtui.app.screens.replay import ReplayScreen

    from ..support.replays import replay_app

    out = tmp_path / "asked.dvr"
    app = replay_app(_parent(tmp_path), branch_path=lambda created: out)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        await press(pilot, "2", "down", "down", "b")  # moment 31
        await pilot.pause()
        assert isinstance(app.screen, BranchScreen) and app.screen.moment == 31
        viewer.go(60)  # the game moved on behind the question
        await press(pilot, "end", "enter")  # keep the seats
        await pilot.pause()
        await press(pilot, "q")
    assert read_game(out).created.parent_seq == 31


def test_a_branch_that_fails_half_way_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written, then refused when read back (any failure after the file exists): the new file and
    its lock are taken away again; the parent is untouched."""
    from dvtui.replay import branch as branch_module
    from dvtui.store import GameFileError, lock_path

    parent = _parent(tmp_path)
    before = parent.read_bytes()
    loaded = read_game(parent)
    out = tmp_path / "branch.dvr"

    def refuse(path: Path) -> None:
        raise GameFileError(str(path), 1, "refused for the test")

    monkeypatch.setattr(branch_module, "read_game", refuse)
    with pytest.raises(GameFileError):
        branch_file(loaded, Replay(loaded.events), 30, out)
    assert not out.exists() and not lock_path(out).exists()
    assert parent.read_bytes() == before


async def test_b_when_the_branch_cannot_be_opened_says_so_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The branch file is written but the game cannot be set up from it: the viewer stays, says
    why, and neither the file nor its lock is left behind."""
    from dvtui.app.screens.replay import ReplayScreen
    from dvtui.engine import UnknownBot
    from dvtui.play import session as session_module
    from dvtui.store import lock_path

    from ..support.replays import replay_app

    def broken(game: object) -> list[None]:
        raise UnknownBot("unknown bot level 'oracle'")

    monkeypatch.setattr(session_module, "bot_specs", broken)
    parent = _parent(tmp_path)
    out = tmp_path / "branched.dvr"
    app = replay_app(parent, branch_path=lambda created: out)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await press(pilot, "2", "b")
        await pilot.pause()
        await press(pilot, "end", "enter")  # keep the seats
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.session is None
        assert any("unknown bot level 'oracle'" in str(n.message) for n in notifications(app))
    assert not out.exists() and not lock_path(out).exists()


async def test_a_branch_from_a_rounds_end_opens_on_the_next_round_not_a_recap(tmp_path: Path) -> None:
    """A recap is for a game left while its resolution was shown; a branch starts where its player
    chose, after a resolution they have just watched in the viewer."""
    from dvtui.app.screens.replay import ReplayScreen
    from dvtui.app.screens.table import TableScreen

    from ..support.replays import replay_app

    out = tmp_path / "branched.dvr"
    app = replay_app(_parent(tmp_path), branch_path=lambda created: out)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await press(pilot, "3")  # the start of round 3: the file so far ends with round 2's round_ended
        await press(pilot, "b")
        await pilot.pause()
        await press(pilot, "end", "enter")  # keep the seats
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        branched = read_game(out)  # the bots play on at once: the file may hold some of round 3 already
        start = branched.created.parent_seq
        assert isinstance(branched.events[start], RoundEnded) and branched.events[start].round == 2
        assert all(
            isinstance(e, CardPlaced | ColumnResolved | RoundEnded) and e.round == 3
            for e in branched.events[start + 1 :]
        )
        resolution = table.flow.resolution  # the bots play on: a resolution on screen is round 3's, never round 2's
        assert resolution is None or (not resolution.recap and all(step.event.round == 3 for step in resolution.steps))
