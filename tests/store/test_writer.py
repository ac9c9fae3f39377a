"""Writing ``.dvr`` files: exclusive creation, one write + fsync per decision with its derived
events, consecutive ``seq``, torn-tail repair on resume, and a failed write that costs nothing
durable (docs/REPLAY_FORMAT.md "Encoding")."""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

import dvtui.store.writer as writer_module
from dvtui.cli import main
from dvtui.engine import CardPlaced, Event, GameCreated, Placement, fold
from dvtui.store import GameWriter, SaveError, read_game

from ..support.files import DERIVED, PLAYERS, engine_events, engine_lines, file_bytes, lines_of, strip_at, write_game

PLAYERS_3 = PLAYERS[3]
SEED = 12


def patch_syscall(monkeypatch: pytest.MonkeyPatch, name: str, fn: Callable[..., object]) -> Callable[..., object]:
    """Replace the writer's ``os.<name>`` (the writer may look its system calls up through
    module-level aliases ``_write``/``_fsync``/``_ftruncate`` so only it is affected); returns the
    real function."""
    alias = f"_{name}"
    if hasattr(writer_module, alias):
        real = getattr(writer_module, alias)
        monkeypatch.setattr(writer_module, alias, fn)
    else:
        real = getattr(os, name)
        monkeypatch.setattr(writer_module.os, name, fn)
    return real


def decision_groups(events: list[Event]) -> list[list[Event]]:
    """The game's events as the writer receives them: each decision with the derived events it
    triggers (``game_created`` alone first)."""
    groups: list[list[Event]] = []
    for ev in events:
        if isinstance(ev, DERIVED):
            groups[-1].append(ev)
        else:
            groups.append([ev])
    return groups


def write_first(path: Path, groups: list[list[Event]], count: int, *, stamp: bool = True) -> None:
    """Create ``path`` and append the first ``count`` groups (game_created included), then close."""
    created = groups[0][0]
    assert isinstance(created, GameCreated)
    with GameWriter.create(path, created, stamp=stamp) as w:
        for group in groups[1:count]:
            w.append(group)


def continue_game(path: Path, writer: GameWriter, groups: list[list[Event]]) -> None:
    """Play the rest of the game through the engine, from where the file is, appending as play does."""
    game = read_game(path).game
    for group in groups:
        placed = group[0]
        assert isinstance(placed, CardPlaced)
        if game.placements and game.placements[-1] == placed and game.round == placed.round:
            continue  # already in the file
        writer.append(game.place(Placement(placed.card, placed.column), player=placed.player))


# -- create ------------------------------------------------------------------------------------


def test_create_writes_game_created_as_line_zero_with_mode_0600(tmp_path: Path) -> None:
    created = engine_events(PLAYERS_3, SEED)[0]
    assert isinstance(created, GameCreated)
    path = tmp_path / "new.dvr"
    with GameWriter.create(path, created) as w:
        assert w.next_seq == 1
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    (line,) = lines_of(path.read_bytes())
    o = json.loads(line)
    assert list(o)[:2] == ["type", "seq"] and list(o)[-1] == "at"
    assert (o["type"], o["seq"]) == ("game_created", 0)
    assert o["at"].endswith("Z") and "T" in o["at"]
    assert strip_at(line) == engine_lines(PLAYERS_3, SEED)[0]
    assert read_game(path).game.round == 1


def test_create_never_overwrites(tmp_path: Path) -> None:
    created = engine_events(PLAYERS_3, SEED)[0]
    assert isinstance(created, GameCreated)
    path = tmp_path / "taken.dvr"
    path.write_bytes(b"precious")
    with pytest.raises(SaveError, match="already exists"):
        GameWriter.create(path, created)
    assert path.read_bytes() == b"precious"

    write_first(path.with_name("game.dvr"), [[created]], 1)
    before = path.with_name("game.dvr").read_bytes()
    with pytest.raises(SaveError, match="already exists"):
        GameWriter.create(path.with_name("game.dvr"), created)
    assert path.with_name("game.dvr").read_bytes() == before


def test_create_in_a_missing_directory_is_a_save_error(tmp_path: Path) -> None:
    created = engine_events(PLAYERS_3, SEED)[0]
    assert isinstance(created, GameCreated)
    path = tmp_path / "no" / "such" / "dir" / "g.dvr"
    try:
        with pytest.raises(SaveError) as e:
            GameWriter.create(path, created).close()
    finally:
        assert not (tmp_path / "no").exists()  # no directory made on the way (a typo stays a typo)
    assert str(path) in str(e.value) and "\n" not in str(e.value)


# -- append ------------------------------------------------------------------------------------


def test_append_writes_a_decision_and_its_derived_events_in_one_write_then_fsync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = engine_events(PLAYERS_3, SEED)
    groups = decision_groups(events)
    path = tmp_path / "g.dvr"
    calls: list[tuple[str, int]] = []

    def spy_write(fd: int, data: bytes) -> int:
        calls.append(("write", bytes(data).count(b"\n")))
        return real_write(fd, data)

    def spy_fsync(fd: int) -> None:
        calls.append(("fsync", 0))
        real_fsync(fd)

    created = groups[0][0]
    assert isinstance(created, GameCreated)
    with GameWriter.create(path, created, stamp=True) as w:
        real_write = patch_syscall(monkeypatch, "write", spy_write)
        real_fsync = patch_syscall(monkeypatch, "fsync", spy_fsync)
        for group in groups[1:]:
            size = path.stat().st_size
            seq = w.next_seq
            calls.clear()
            written = w.append(group)
            assert calls == [("write", len(group)), ("fsync", 0)]
            assert w.next_seq == seq + len(group)
            added = lines_of(path.read_bytes()[size:])
            assert written == added  # what the server sends on is what the file holds
            assert len(added) == len(group)
            assert [json.loads(line)["seq"] for line in added] == list(range(seq, seq + len(group)))
            assert [json.loads(line)["type"] for line in added] == [ev.__struct_config__.tag for ev in group]
    sizes = [len(g) for g in groups]
    # a round's last placement: 1 + 7 column_resolved + round_ended; the game's: + game_ended
    assert sizes.count(9) == 5 and sizes[-1] == 10 and set(sizes[1:]) == {1, 9, 10}
    data = path.read_bytes()
    assert [strip_at(line) for line in lines_of(data)] == engine_lines(PLAYERS_3, SEED)
    assert [json.loads(line)["seq"] for line in lines_of(data)] == list(range(len(events)))


def test_one_append_stamps_all_its_lines_alike_and_unstamped_writers_write_no_at(tmp_path: Path) -> None:
    groups = decision_groups(engine_events(PLAYERS_3, SEED))
    round_end = next(i for i, g in enumerate(groups) if len(g) > 1)
    stamped, plain = tmp_path / "stamped.dvr", tmp_path / "plain.dvr"
    write_first(stamped, groups, round_end + 1, stamp=True)
    write_first(plain, groups, round_end + 1, stamp=False)
    last = lines_of(stamped.read_bytes())[-9:]
    assert len({json.loads(line)["at"] for line in last}) == 1
    assert all(list(json.loads(line))[-1] == "at" for line in lines_of(stamped.read_bytes()))
    assert b'"at"' not in plain.read_bytes()
    assert [strip_at(line) for line in lines_of(stamped.read_bytes())] == lines_of(plain.read_bytes())
    assert strip_at(stamped.read_bytes()) == plain.read_bytes()  # a whole file at once, as line by line


def test_strip_at_removes_any_stamp_and_only_the_stamp() -> None:
    """What the tests compare files "apart from at" with: the stamp is any JSON string, last on its line."""
    events = engine_events(PLAYERS_3, SEED)[:3]
    for at in ("2026-11-26T19:35:00.123Z", 'a "quoted" \\ stamp}\n', ""):
        stamped = file_bytes(events, at)
        assert strip_at(stamped) == file_bytes(events), at
    assert strip_at(file_bytes(events)) == file_bytes(events)


def test_a_whole_game_written_by_play_verifies(tmp_path: Path) -> None:
    path = tmp_path / "g.dvr"
    game, _ = write_game(path, PLAYERS[5], seed=3, first=4)
    loaded = read_game(path)
    assert loaded.game.over and loaded.game.scores() == game.scores()
    assert main(["verify", str(path)]) == 0


# -- resume ------------------------------------------------------------------------------------


def test_resume_of_a_torn_file_keeps_a_copy_cuts_the_tail_then_appends(tmp_path: Path) -> None:
    events = engine_events(PLAYERS_3, SEED)
    groups = decision_groups(events)
    path = tmp_path / "g.dvr"
    write_first(path, groups, 30)
    intact = path.read_bytes()
    with path.open("ab") as f:  # the writer died half-way through the next line
        f.write(b'{"type":"card_placed","seq":')
    damaged = path.read_bytes()

    loaded = read_game(path)
    assert loaded.torn is not None and loaded.good_bytes == len(intact)
    lines_before = loaded.file_lines
    with GameWriter.resume(loaded) as w:
        kept = sorted(tmp_path.glob("g.dvr.torn-*"))
        assert len(kept) == 1
        assert kept[0].read_bytes() == damaged
        assert ":" not in kept[0].name
        assert path.read_bytes() == intact
        assert w.next_seq == lines_before
        continue_game(path, w, groups[30:])
    final = read_game(path)
    assert final.torn is None and final.game.over
    assert final.events == events
    assert [strip_at(line) for line in lines_of(path.read_bytes())] == engine_lines(PLAYERS_3, SEED)
    assert main(["verify", str(path)]) == 0


def test_resume_of_an_intact_file_keeps_no_copy(tmp_path: Path) -> None:
    groups = decision_groups(engine_events(PLAYERS_3, SEED))
    path = tmp_path / "g.dvr"
    write_first(path, groups, 12)
    with GameWriter.resume(read_game(path)) as w:
        continue_game(path, w, groups[12:])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.dvr"]
    assert read_game(path).game.over


def test_resume_appends_the_derived_events_a_cut_file_lost_first(tmp_path: Path) -> None:
    events = engine_events(PLAYERS_3, SEED)
    groups = decision_groups(events)
    ends = [i for i, g in enumerate(groups) if len(g) > 1]
    path = tmp_path / "g.dvr"
    write_first(path, groups, ends[1] + 1)
    data = path.read_bytes()
    # the crash came after the round's last placement, before its derived events reached the disk
    cut = sum(len(g) for g in groups[: ends[1]]) + 1
    path.write_bytes(b"".join(lines_of(data)[:cut]))
    loaded = read_game(path)
    assert len(loaded.missing_tail) == 8
    with GameWriter.resume(loaded) as w:
        assert w.next_seq == cut + 8
        assert lines_of(path.read_bytes())[: len(lines_of(data))] == lines_of(data)[:cut] + [
            line for line in lines_of(path.read_bytes())[cut:]
        ]
        tail = [json.loads(line) for line in lines_of(path.read_bytes())[cut:]]
        assert [o["type"] for o in tail] == ["column_resolved"] * 7 + ["round_ended"]
        assert [o["seq"] for o in tail] == list(range(cut, cut + 8))
        continue_game(path, w, groups[ends[1] + 1 :])
    assert read_game(path).events == events


def test_resume_of_a_game_script_keeps_it_a_script(tmp_path: Path) -> None:
    events = engine_events(PLAYERS_3, SEED)
    groups = decision_groups(events)
    path = tmp_path / "script.dvr"
    created = groups[0][0]
    assert isinstance(created, GameCreated)
    with GameWriter.create(path, created, stamp=False) as w:
        for group in groups[1:21]:
            assert len(w.append(group[:1])) == 1  # decisions only
    loaded = read_game(path)
    assert loaded.decisions_only
    with GameWriter.resume(loaded, stamp=False) as w:
        assert w.append(next(g for g in groups[21:] if len(g) > 1)[1:]) == []  # derived: a script leaves them out
        continue_game(path, w, groups[21:])
    final = read_game(path)
    assert final.decisions_only and final.game.over
    assert final.events == events
    kinds = {json.loads(line)["type"] for line in lines_of(path.read_bytes())}
    assert kinds == {"game_created", "card_placed"}


# -- failures ----------------------------------------------------------------------------------


def no_space(fd: int, data: bytes) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("at_round_end", [False, True], ids=["placement", "round-end"])
def test_a_full_disk_raises_save_error_and_keeps_the_file_valid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at_round_end: bool
) -> None:
    events = engine_events(PLAYERS_3, SEED)
    groups = decision_groups(events)
    ends = [i for i, g in enumerate(groups) if len(g) > 1]
    failing = ends[0] if at_round_end else ends[0] + 3
    path = tmp_path / "g.dvr"
    created = groups[0][0]
    assert isinstance(created, GameCreated)
    w = GameWriter.create(path, created)
    try:
        for group in groups[1:failing]:
            w.append(group)
        before = path.read_bytes()
        seq = w.next_seq
        patch_syscall(monkeypatch, "write", no_space)
        with pytest.raises(SaveError) as e:
            w.append(groups[failing])
        message = str(e.value)
        assert str(path) in message and "\n" not in message
        assert "full" in message or "No space" in message
        assert path.read_bytes() == before
        assert w.next_seq == seq
        monkeypatch.undo()
        # the file holds every decision up to the last durable one, and nothing else
        loaded = read_game(path)
        assert loaded.torn is None and not loaded.missing_tail
        assert loaded.file_lines == seq
        assert loaded.events == events[:seq]
        assert main(["verify", str(path)]) == 0
    finally:
        w.close()


def test_a_write_cut_short_by_a_full_disk_is_cut_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    groups = decision_groups(engine_events(PLAYERS_3, SEED))
    end = next(i for i, g in enumerate(groups) if len(g) > 1)
    path = tmp_path / "g.dvr"
    write_first(path, groups, end)
    before = path.read_bytes()
    loaded = read_game(path)
    w = GameWriter.resume(loaded)
    try:
        real: list[Callable[..., int]] = []

        def half_then_full(fd: int, data: bytes) -> int:
            if len(real) == 1:  # the first call gets half of it on disk, the next finds it full
                real.append(real[0])
                return real[0](fd, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        real.append(patch_syscall(monkeypatch, "write", half_then_full))  # type: ignore[arg-type]
        with pytest.raises(SaveError):
            w.append(groups[end])
        monkeypatch.undo()
        assert path.read_bytes() == before
        # a failed writer has stopped the game: nothing more goes into the file through it
        with pytest.raises(SaveError):
            w.append(groups[end])
        assert path.read_bytes() == before
    finally:
        w.close()
    # play continues after a resume, from the last durable decision
    with GameWriter.resume(read_game(path)) as w2:
        continue_game(path, w2, groups[end:])
    assert read_game(path).game.over


def test_a_failed_fsync_is_a_save_error_and_the_write_is_cut_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    groups = decision_groups(engine_events(PLAYERS_3, SEED))
    path = tmp_path / "g.dvr"
    write_first(path, groups, 7)
    before = path.read_bytes()
    with GameWriter.resume(read_game(path)) as w:

        def io_error(fd: int) -> None:
            raise OSError(errno.EIO, os.strerror(errno.EIO))

        patch_syscall(monkeypatch, "fsync", io_error)
        with pytest.raises(SaveError):
            w.append(groups[7])
        monkeypatch.undo()
    assert path.read_bytes() == before
    assert read_game(path).file_lines == before.count(b"\n")


def test_when_even_the_cut_back_fails_the_reader_recovers_the_durable_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    groups = decision_groups(engine_events(PLAYERS_3, SEED))
    path = tmp_path / "g.dvr"
    write_first(path, groups, 9)
    before = path.read_bytes()
    with GameWriter.resume(read_game(path)) as w:
        real: list[Callable[..., int]] = []

        def torn_write(fd: int, data: bytes) -> int:
            if len(real) == 1:  # 20 bytes reach the disk, then it is full
                real.append(real[0])
                return real[0](fd, data[:20])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def cannot(fd: int, size: int) -> None:
            raise OSError(errno.EIO, os.strerror(errno.EIO))

        real.append(patch_syscall(monkeypatch, "write", torn_write))  # type: ignore[arg-type]
        patch_syscall(monkeypatch, "ftruncate", cannot)
        with pytest.raises(SaveError):
            w.append(groups[9])
        monkeypatch.undo()
    data = path.read_bytes()
    assert data.startswith(before) and len(data) == len(before) + 20
    loaded = read_game(path)
    assert loaded.torn is not None and loaded.torn.offset == len(before)
    assert loaded.file_lines == before.count(b"\n")


def test_a_new_game_whose_first_line_cannot_be_saved_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = engine_events(PLAYERS_3, SEED)[0]
    assert isinstance(created, GameCreated)
    path = tmp_path / "g.dvr"
    patch_syscall(monkeypatch, "write", no_space)
    with pytest.raises(SaveError) as e:
        GameWriter.create(path, created)
    assert str(path) in str(e.value)
    assert not path.exists()


def test_game_state_after_failed_save_matches_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the file holds after a failed save is exactly the game up to the last durable decision."""
    events = engine_events(PLAYERS_3, SEED)
    groups = decision_groups(events)
    path = tmp_path / "g.dvr"
    write_first(path, groups, 40)
    expected = fold(events[: sum(len(g) for g in groups[:40])]).game
    with GameWriter.resume(read_game(path)) as w:
        patch_syscall(monkeypatch, "write", no_space)
        with pytest.raises(SaveError):
            w.append(groups[40])
    loaded = read_game(path)
    assert loaded.game.columns == expected.columns and loaded.game.hands == expected.hands
    assert loaded.game.scores() == expected.scores() and loaded.game.to_move == expected.to_move
