"""Shared tables followed and played from the plain mode's lines: two plain players (one in
French) and a plain spectator play a whole game at a real ``dvtui serve``; and a plain player
shares a table with a full-screen one (in tmux). Nobody's output carries an escape sequence."""

from __future__ import annotations

import getpass
import os
import re
import time
from typing import Any

import pytest

from dvtui.bots import choose
from dvtui.engine import CardPlaced, Game
from dvtui.store import read_game

from ..support.plain import PlainPlayer, no_escape
from ..support.processes import in_process
from ..support.servers import Served, server_in_thread, short_dir, table_on_disk, wait_for
from ..support.terminals import Terminals

PLAYERS = "Ana,Bob,bot:greedy"


def _settled(server: Served, table: str) -> Game:
    """The table's game once it waits for a person (or is over): the bots have answered (looked at
    every 20 ms: folding a whole game's file takes under a millisecond)."""
    wait_for("the bots' answers", lambda: (g := server.game(table)).over or g.to_move != 2)
    return server.game(table)


@pytest.mark.long
def test_two_plain_players_and_a_plain_spectator_play_a_whole_game() -> None:
    """Ana opens the table and sits at it, Bob joins in French, a spectator watches; each hears
    every move, the arrivals, a chat line and the clock."""
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        srv = str(server.directory)
        ana = PlainPlayer("new", "--table", "duo", "--players", PLAYERS, "--seed", "8", "--start-now", "--move-time",
                          "1h", "--as", "Ana", "--plain", "--server", srv, data=d)  # Ana opens the table  # fmt: skip
        ana.expect("You sit at table duo as Ana.")
        bob = PlainPlayer("--lang", "fr", "join", "duo", "--as", "Bob", "--plain", "--no-bell", "--server", srv,
                          data=d)  # fmt: skip
        bob.expect("Nouvelle partie\u00a0: Ana, Bob et Bot 1")
        ana.expect("Bob: here.")  # an arrival is a line
        watcher = PlainPlayer("watch", "duo", "--plain", "--server", srv, data=d)
        watcher.expect("You are watching table duo.")
        watcher.send("3 c")
        watcher.expect("You are watching: you cannot play.")
        bob.send("3 c")  # Ana is to play first
        bob.expect("It is not your turn: Ana is to play|Ce n’est pas votre tour.: c’est à Ana de jouer")
        ana.send("say hello Bob")
        bob.expect("Ana (says|dit.): hello Bob")  # a chat line is a line (in French once the catalogue has it)
        ana.send("")  # the turn's prompt again (the first went by with the lines above)
        seats = {0: ana, 1: bob}
        while not (game := _settled(server, "duo")).over:
            player = seats[game.to_move]
            hand = player.turn()
            assert hand == sorted(game.hands[game.to_move])
            lines = server.lines("duo")
            player.send(f"{min(hand)} {'ab'[game.to_move]}")
            wait_for("the move", lambda lines=lines: server.lines("duo") > lines)  # (a count of lines: cheap)
        for person in (ana, bob, watcher):
            person.expect("table duo.?: ")  # the result on leaving, in each one's language
            assert person.finish() == 0
            no_escape(person.said)
        assert re.search(r"\nBob has (1:00:00|59:\d\d) to move\.", watcher.said)  # the clock of each turn
        assert "\a" + "Ana, your turn" in ana.said  # the bell rings before the turn's prompt
        assert "\a" not in bob.said  # --no-bell
        assert "Colonne G\u00a0: " in bob.said and "Column G: " in watcher.said  # each round's end, column by column
        verified = in_process("verify", str(server.game_file("duo")))
        assert verified.returncode == 0, verified.stdout + verified.stderr


def _asking(game: Game, name: str) -> object:
    """Whether the full screen asks ``name`` to move in ``game``'s position (its hand row shown)."""
    hand = game.hands[game.to_move]
    row = f"▶ {name} {' '.join(str(c) if c in hand else '·' for c in range(1, 7))} pick a card"
    return lambda screen: "Your turn" in screen and any(" ".join(line.split()).startswith(row)
                                                        for line in screen.splitlines())  # fmt: skip


def _late_in_round_5(lines: list[dict[str, Any]]) -> int:
    """Three placements before round 5 ends: a round's end, then the last round, are left to play."""
    return max(i for i, line in enumerate(lines) if line["type"] == "card_placed" and line["round"] == 5) - 2


@pytest.mark.tmux
@pytest.mark.long
def test_a_plain_player_and_a_full_screen_player_share_a_table() -> None:
    """The table is one a server stopped late in its game left: a round's end and the last round
    are played (the same two typing the whole game's ninety placements would show no more)."""
    with short_dir() as d, Served(d / "srv") as server:
        d.joinpath("srv").mkdir(mode=0o700)
        games = server.directory / "games"  # (opened by this account: its seats are its to take)
        before = table_on_disk(games, "mix", PLAYERS, 8, _late_in_round_5, opener=os.geteuid())
        server.start()
        srv = str(server.directory)
        terms = Terminals(d)
        try:
            terms.run("Ana", "join", "mix", "--as", "Ana", "--server", srv, "--no-bell")
            bob = PlainPlayer("join", "mix", "--as", "Bob", "--plain", "--server", srv, data=d)
            bob.expect("You sit at table mix as Bob.")
            terms.wait("Ana", "Bob at the table", lambda s: f"Bob ({getpass.getuser()}) (here)" in s)
            sent = 0.0
            while not (game := _settled(server, "mix")).over:
                if game.to_move == 1:
                    hand = bob.turn()
                    assert hand == sorted(game.hands[1])
                    lines = server.lines("mix")
                    bob.send(f"{min(hand)} c")
                else:
                    asking = _asking(game, "Ana")

                    def asked(screen: str, asking: object = asking) -> bool:
                        nonlocal sent
                        if asking(screen):  # type: ignore[operator]
                            return True
                        if ("⏎ next" in screen or "s: skip" in screen) and time.monotonic() - sent > 0.3:
                            terms.keys("Ana", "s")  # past a round's resolution on the full screen
                            sent = time.monotonic()
                        return False

                    terms.wait("Ana", "Ana's turn", asked)
                    card, column = choose("greedy", game.copy(), 11)
                    lines = server.lines("mix")
                    terms.keys("Ana", str(card), "abcdefg"[column], "Enter")
                wait_for("the move", lambda lines=lines: server.lines("mix") > lines)
            bob.expect("table mix: Game over")
            assert bob.finish() == 0
            no_escape(bob.said)
            first = server.game("mix")
            assert first.over
            placed_by_ana = [line for line in bob.lines() if line.startswith("Ana placed ")]
            anas = [e for e in read_game(server.game_file("mix")).events[before:] if isinstance(e, CardPlaced)
                    and e.player == 0]  # fmt: skip
            assert len(anas) > 5 and len(placed_by_ana) == len(anas)  # the full screen's every move, read out
        finally:
            terms.close()


def test_a_lost_connection_and_its_return_are_each_said_once() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        srv = str(server.directory)
        opened = server.dvtui("new", "--table", "solo", "--players", "Ana,bot:greedy,bot:greedy", "--start-now")
        assert opened.returncode == 0, opened.stderr
        ana = PlainPlayer("join", "solo", "--plain", "--no-bell", "--server", srv, data=d)
        assert ana.turn() == [1, 2, 3, 4, 5, 6]
        server.kill9()
        ana.expect("The connection to the table was lost; reconnecting.")
        server.start()
        ana.expect("Connected to the table again.")
        ana.send("2 d")
        ana.expect("Ana placed 2 under column D")
        assert ana.turn() == [1, 3, 4, 5, 6]
        ana.send("quit")
        ana.expect("Left table solo")
        assert ana.finish() == 0
        assert ana.said.count("reconnecting") == 1
        no_escape(ana.said)


def test_a_hostile_chat_line_reaches_the_lines_escaped() -> None:
    """Outside text (a chat line with an escape sequence and a bidi override) is shown, never obeyed.
    (Here and below, the server runs in a thread of this process: its process is not the subject.)"""
    with server_in_thread() as srv:
        d, where = srv.place.directory.parent, str(srv.place.directory)
        opened = in_process("new", "--table", "talk", "--players", "Ana,bot:greedy,bot:greedy", "--start-now",
                            "--server", where)  # fmt: skip
        assert opened.returncode == 0, opened.stderr
        ana = PlainPlayer("join", "talk", "--plain", "--no-bell", "--server", where, data=d)
        assert ana.turn() is not None
        said = in_process("say", "talk", "\x1b[2Jgone\u202eevil", "--server", where)
        assert said.returncode == 0, said.stderr
        ana.expect(r"Ana says: \\x1b\[2Jgone\\u202eevil")  # the account plays Ana: its line is hers
        ana.send("q")
        assert ana.finish() == 0
        no_escape(ana.said)
        assert "\u202e" not in ana.said


def test_a_table_closed_by_its_opener_ends_the_lines() -> None:
    with server_in_thread() as srv:
        d, where = srv.place.directory.parent, str(srv.place.directory)
        opened = in_process("new", "--table", "shut", "--players", "Ana,bot:greedy,bot:greedy", "--start-now",
                            "--server", where)  # fmt: skip
        assert opened.returncode == 0, opened.stderr
        ana = PlainPlayer("join", "shut", "--plain", "--no-bell", "--server", where, data=d)
        assert ana.turn() is not None
        closed = in_process("close", "shut", "--server", where)
        assert closed.returncode == 0, closed.stderr
        ana.expect("closed")  # what the table said, as a line
        assert ana.finish() == 0  # no prompt waits for a move the table would refuse
        no_escape(ana.said)


def test_a_plain_player_is_told_the_table_is_rated() -> None:
    with server_in_thread() as srv:
        d, where = srv.place.directory.parent, str(srv.place.directory)
        opened = in_process("new", "--table", "ranked", "--players", PLAYERS, "--seed", "8", "--start-now", "--rated",
                            "--server", where)  # fmt: skip
        assert opened.returncode == 0, opened.stderr
        ana = PlainPlayer("join", "ranked", "--as", "Ana", "--plain", "--server", where, data=d)
        ana.expect("You sit at table ranked as Ana.")
        ana.expect("The table is rated: its game's end moves the ratings of the people at it.")
        ana.send("quit")
        assert ana.finish() == 0
