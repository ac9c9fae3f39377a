"""People at a shared table from their own terminals, with real processes: ``dvtui serve``, three
``dvtui join`` in three tmux sessions (keys sent as a person types them) and a ``dvtui watch``.
One player's client is killed with -9 mid-round and comes back with ``dvtui join``; the game goes
on where it was, the file verifies, everyone's screen ends on the same result, and the spectator's
screen showed the moves as they came. The server killed with -9 mid-round: the player's screen
says "reconnecting…", plays on after the restart, and the file is the start of the uninterrupted
game's. Needs ``tmux``."""

from __future__ import annotations

import getpass
import os
import subprocess
import time
from collections.abc import Callable
from typing import Any

import pytest

from dvtui.bots import Placement, choose
from dvtui.engine import CardPlaced, Game
from dvtui.store import read_game

from ..support.files import strip_at
from ..support.processes import in_process
from ..support.servers import SLOW, Served, short_dir, table_on_disk, uninterrupted, wait_for
from ..support.terminals import Terminals

pytestmark = pytest.mark.tmux

PLAYERS = ["Ana", "Bob", "Cy"]
SOLO = "Ana,bot:greedy,bot:greedy"
GO_ON_EVERY = 0.3
"""Seconds at least between two ``s`` typed to go on past a round's summary."""

ME = getpass.getuser()
"""The account the terminals run as: the banner names it beside each seat it holds."""


def _play_one(terms: Terminals, server: Served, table: str, sessions: list[str]) -> tuple[int, Placement]:
    """The player to move places (a greedy choice) by typing it on their own screen, once their
    screen asks them for the position the file holds (a round's summary there waits for a key:
    ``s`` goes on). Returns who placed what."""
    game = server.game(table)
    name = sessions[game.to_move]
    assert name, f"seat {game.to_move} is a bot's: nobody types for it"
    card, column = choose("greedy", game.copy(), 11)
    lines = server.lines(table)
    asking = _asking(game)
    go_on = _going_on(terms, name)

    def asked(screen: str) -> bool:
        if asking(screen):
            return True
        go_on(screen)
        return False

    terms.wait(name, f"{name}'s turn", asked)
    terms.keys(name, str(card), "abcdefg"[column], "Enter")
    # A count of the file's lines is cheap: looked at often, the next turn is not kept waiting.
    wait_for(f"{name}'s move", lambda: server.lines(table) > lines, lambda: terms.screen(name))
    return game.to_move, Placement(card, column)


def _asking(game: Game) -> Callable[[str], bool]:
    """Whether a screen asks the player to move for ``game``'s position: its turn, and the hand that
    position gives them. The header alone is not enough: it can still say "Your turn" for a moment
    after the player placed, before the screen has drawn the move, and keys typed then are not
    meant for the next position."""
    seat = game.created.players[game.to_move]
    hand = game.hands[game.to_move]
    row = f"▶ {seat.name} {' '.join(str(c) if c in hand else '·' for c in range(1, 7))} pick a card"
    return lambda screen: (
        "Your turn" in screen and any(" ".join(line.split()).startswith(row) for line in screen.splitlines())
    )


def _going_on(terms: Terminals, name: str) -> Callable[[str], None]:
    """Given ``name``'s screen, goes on past a round's resolution or summary with ``s`` when the
    screen offers it, once in :data:`GO_ON_EVERY` seconds at most (the app takes each key as a
    step of its own, and needs a moment to draw the next)."""
    sent = -GO_ON_EVERY

    def go_on(screen: str) -> None:
        nonlocal sent
        if ("⏎ next" in screen or "s: skip" in screen) and time.monotonic() - sent >= GO_ON_EVERY:
            terms.keys(name, "s")
            sent = time.monotonic()

    return go_on


def _to_end_screens(terms: Terminals, names: list[str]) -> None:
    """Past the last round's summary (``s``) to the end screen, on each of ``names``' screens at
    once: each goes on at its own pace, as people read together (one after another, their waits
    for their screens to step added up)."""
    going_on = {name: _going_on(terms, name) for name in names}
    left = list(names)

    def ended() -> bool:
        for name in list(left):
            screen = terms.screen(name)
            if "GAME OVER" in screen:
                left.remove(name)
            else:
                going_on[name](screen)
        return not left

    wait_for("the end screens", ended, lambda: "\n".join(f"{n}'s screen:\n{terms.screen(n)}" for n in left), SLOW)


def _late_in_round_5(lines: list[dict[str, Any]]) -> int:
    """Three placements before round 5 ends: a round's end, then the last round, are left to play."""
    return max(i for i, line in enumerate(lines) if line["type"] == "card_placed" and line["round"] == 5) - 2


@pytest.mark.long
def test_three_people_at_three_terminals_and_a_spectator_play_a_game_and_one_comes_back_after_kill9() -> None:
    """The table is one a server stopped late in its game left (the same people typing ninety
    placements would show no more): they type the last placements of a round, go on past its end to
    the last round, one is killed there and comes back, and they play it to the game's end."""
    with short_dir() as d, Served(d / "srv") as server:
        d.joinpath("srv").mkdir(mode=0o700)
        games = server.directory / "games"  # (opened by this account: its seats are its to take)
        before = table_on_disk(games, "fri", ",".join(PLAYERS), 8, _late_in_round_5, opener=os.geteuid())
        server.start()
        terms = Terminals(d)
        srv = str(server.directory)
        try:
            terms.run("watch", "watch", "fri", "--server", srv)
            for name in PLAYERS:
                terms.run(name, "join", "fri", "--as", name, "--server", srv, "--no-bell")
            for name in PLAYERS:
                terms.wait(name, f"{name} at the table", lambda s: "Ana (" in s and "Cy (" in s)
            terms.wait(
                "Ana",
                "everyone there",
                lambda s: f"Bob ({ME}) (here)" in s and f"Cy ({ME}) (here)" in s and "1 watching" in s,
            )
            sessions = list(PLAYERS)
            _play_one(terms, server, "fri", sessions)
            first = read_game(server.game_file("fri")).events[before]
            assert isinstance(first, CardPlaced)
            terms.wait(
                "watch",
                "the spectator to see the first move",
                lambda s: f"{PLAYERS[first.player]} placed {first.card} under column {'ABCDEFG'[first.column]}" in s,
            )
            while server.game("fri").round < 6 or len(server.game("fri").placements) < 4:
                _play_one(terms, server, "fri", sessions)
            lines = server.lines("fri")
            subprocess.run(["kill", "-9", str(terms.pid("Bob"))], check=True)  # mid-round
            wait_for("Bob's terminal to die", lambda: terms.dead("Bob"), every=SLOW)
            terms.wait("Ana", "Bob shown away", lambda s: f"Bob ({ME}) (away)" in s)
            terms.run("Bob-again", "join", "fri", "--server", srv, "--no-bell")  # his seat: no --as needed
            sessions[1] = "Bob-again"
            terms.wait("Ana", "Bob back", lambda s: f"Bob ({ME}) (here)" in s)
            assert server.lines("fri") == lines  # nothing was lost or added by the drop
            while not server.game("fri").over:
                _play_one(terms, server, "fri", sessions)
            game = server.game("fri")
            outcome = game.outcome()
            assert outcome is not None
            winner = PLAYERS[outcome.winners[0]]
            # each reads the last round's summary in their own time (the spectator too: left alone,
            # its screen steps through the resolution at the pace of a game watched, a quarter of a
            # minute)
            _to_end_screens(terms, ["watch", *sessions])
            for name in ["watch", *sessions]:
                assert winner in terms.screen(name)
            for name in sessions:
                terms.keys(name, "q")
            for name in sessions:
                terms.wait(name, "the result on leaving", lambda s: "table fri: Game over" in s)
            verified = in_process("verify", str(server.game_file("fri")))
            assert verified.returncode == 0, verified.stdout + verified.stderr
            assert "stand_in" not in server.game_file("fri").read_text()  # everyone played their own seat
        finally:
            terms.close()


def test_a_player_sees_reconnecting_while_the_server_is_down_and_plays_on_after_its_restart() -> None:
    """After the server's kill -9 and restart, and a few more placements, the file is the start
    of the one the same seat, typing the same placements, writes at a table that was never
    interrupted (``at`` aside), up to the bots' answers to the last of them: the server neither
    lost nor repeated a line, and its bots went on as they would have."""
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        terms = Terminals(d)
        srv = str(server.directory)
        try:
            opened = server.dvtui("new", "--table", "sat", "--players", SOLO, "--seed", "4")
            assert opened.returncode == 0, opened.stderr
            terms.run("Ana", "join", "sat", "--server", srv, "--no-bell")
            sessions = ["Ana", "", ""]
            typed: list[Placement] = []  # what Ana typed, in order

            def bots_answered() -> bool:
                game = server.game("sat")
                return game.over or game.to_move == 0

            def ana_plays() -> None:
                wait_for("the bots' answers", bots_answered, every=SLOW)
                if not server.game("sat").over:
                    typed.append(_play_one(terms, server, "sat", sessions)[1])

            for _ in range(3):
                ana_plays()
            wait_for("the bots' answers", bots_answered, every=SLOW)
            lines = server.lines("sat")
            server.kill9()
            terms.wait("Ana", "reconnecting… on screen", lambda s: "reconnecting…" in s)
            server.start()
            terms.wait("Ana", "the table back", lambda s: "table sat" in s and "Your turn" in s)
            assert server.lines("sat") == lines
            for _ in range(3):  # the game goes on where it was
                ana_plays()
            wait_for("the bots' answers", bots_answered, every=SLOW)
            played = server.game_file("sat").read_bytes()
            expected = uninterrupted(SOLO, 4, 0, [typed, "greedy", "greedy"], d, prefix=True)
            assert strip_at(played) == strip_at(expected)
            terms.keys("Ana", "q")
            terms.wait("Ana", "her seat kept on leaving", lambda s: "Left table sat" in s)
            verified = in_process("verify", str(server.game_file("sat")))
            assert verified.returncode == 0, verified.stdout + verified.stderr
        finally:
            terms.close()
