"""People at one table over real SSH: OpenSSH's sshd on 127.0.0.1, each person logging in with their
own key to the live table (``dvtui join``) in a terminal of their own (tmux), the table on a
``dvtui serve`` of the host.

Two Unix accounts: the second can neither take the first's seat nor let a bot move for it (one
clear line, exit 1), sits at their own seat instead and plays, and the first sees the move. One
shared account, as docs/SHARED_TABLES.md sets it up: a forced command per key, which seats each
key at its own seat whatever the client asks for, and needs ``pty`` after ``restrict``.

The accounts are real (``useradd``, kept between runs) and run this checkout (``tests/support/sshd.py``
says how they reach it). Needs what ``tests/safety/test_ssh.py`` needs, and root.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Callable, Iterator

import pytest

from dvtui.bots import choose
from dvtui.engine import CardPlaced, Placement
from dvtui.store import read_game

from ..support.servers import SLOW, Served, short_dir, wait_for
from ..support.sshd import ENDED, Sshd, unix_account

pytestmark = pytest.mark.sshd

ANA, BOB, SHARED = "dvtuiana", "dvtuibob", "dvtuishared"
"""The logins (none is named like a seat: each names the seat it takes with ``--as``)."""
PLAYERS = "Ana,Bob,bot:greedy"


@pytest.fixture(scope="module")
def logins() -> dict[str, pwd.struct_passwd]:
    return {name: unix_account(name, shell="/bin/sh") for name in (ANA, BOB, SHARED)}


@pytest.fixture
def host(logins: dict[str, pwd.struct_passwd]) -> Iterator[tuple[Served, Sshd]]:
    """A table server every account may reach (its directory open to all, as ``install -m 0755``
    makes it) and sshd, whose sessions find the server by ``DVTUI_SERVER_DIR``."""
    with short_dir() as d, Served(d / "srv") as server:
        os.chmod(d, 0o755)
        server.directory.mkdir(mode=0o755)
        server.start()
        (d / "ssh").mkdir(mode=0o755)
        sshd = Sshd(d / "ssh", {"DVTUI_SERVER_DIR": str(server.directory)})
        try:
            yield server, sshd
        finally:
            sshd.close()


def _placements(server: Served, table: str) -> list[CardPlaced]:
    return [ev for ev in read_game(server.game_file(table)).events if isinstance(ev, CardPlaced)]


def _open(server: Served, table: str, *invite: str) -> None:
    invitations = [word for seat in invite for word in ("--invite", seat)]
    opened = server.dvtui("new", "--table", table, "--players", PLAYERS, "--seed", "6", "--start-now", *invitations)
    assert opened.returncode == 0, opened.stderr


def _place(sshd: Sshd, session: str, server: Served, table: str) -> Placement:
    """The seat to move places its greedy choice by typing it on its screen (once it says so)."""
    game = server.game(table)
    card, column = choose("greedy", game.copy(), 11)
    who = game.created.players[game.to_move].name
    _wait_screen(sshd, session, f"{who}'s turn", lambda s: f"Your turn, {who}" in s)
    placed = len(_placements(server, table))
    sshd.keys(session, str(card), "abcdefg"[column], "Enter")
    moved = lambda: len(_placements(server, table)) > placed  # noqa: E731
    wait_for(f"{who}'s placement", moved, lambda: sshd.screen(session), SLOW)
    return Placement(card, column)


def _wait_screen(sshd: Sshd, session: str, what: str, check: Callable[[str], bool]) -> None:
    wait_for(what, lambda: check(sshd.screen(session)), lambda: f"{session}'s screen:\n{sshd.screen(session)}", SLOW)


def _refused(sshd: Sshd, session: str, code: int = 1, noted: tuple[str, ...] = ()) -> str:
    """The one line a refused ``dvtui`` left on its terminal, once ssh ended with its exit
    ``code`` (``noted``: the beginnings of what ssh itself may have said there)."""
    wait_for(f"{session} to end", lambda: sshd.ended(session), lambda: sshd.written(session), SLOW)
    assert sshd.exit_status(session) == code, sshd.written(session)
    lines = [line.strip() for line in sshd.written(session).splitlines() if line.strip()]
    said = [line for line in lines if line != ENDED and not line.startswith(("Pane is dead", *noted))]  # tmux's note
    assert len(said) == 1, lines
    assert "Traceback" not in said[0]
    return said[0]


def _tables(server: Served) -> str:
    listed = server.dvtui("tables")
    assert listed.returncode == 0, listed.stderr
    return listed.stdout


def test_two_unix_users_over_ssh_the_second_cannot_take_or_move_for_the_first_users_seat(
    host: tuple[Served, Sshd],
) -> None:
    server, sshd = host
    _open(server, "duo")
    ana, bob = sshd.login(ANA), sshd.login(BOB)
    sshd.open("ana", ANA, ana, "dvtui join duo --as Ana --no-bell")
    _wait_screen(sshd, "ana", "Ana's turn", lambda s: "table duo" in s and "Your turn, Ana" in s)
    assert "Ana: connected (dvtuiana)" in _tables(server)

    # While it is her turn (a bot let in would place at once), both at once (each login's start
    # is a second's wait):
    sshd.open("take", BOB, bob, "dvtui join duo --as Ana --no-bell")  # her seat, on his screen
    sshd.open("bot", BOB, bob, "dvtui join duo --as Ana --bot greedy")  # a bot of his, moving for her
    assert _refused(sshd, "take") == "dvtui: error: Ana's seat at table duo belongs to user dvtuiana"
    assert _refused(sshd, "bot") == "dvtui: error: Ana's seat at table duo belongs to user dvtuiana"
    assert _placements(server, "duo") == []  # nothing moved for her
    assert "Ana: connected (dvtuiana); Bob: free" in _tables(server)  # nor was a seat taken
    first = _place(sshd, "ana", server, "duo")

    sshd.open("bob", BOB, bob, "dvtui join duo --as Bob --no-bell")
    _wait_screen(sshd, "bob", "Bob at the table", lambda s: "Bob (you)" in s and f"Ana ({ANA}) (here)" in s)
    second = _place(sshd, "bob", server, "duo")
    name = f"Bob placed {second.card} under column {'ABCDEFG'[second.column]}"
    _wait_screen(sshd, "ana", "Bob's move on Ana's screen", lambda s: name in s)
    _wait_screen(sshd, "ana", "Ana's turn again, after the bot's", lambda s: "Your turn, Ana" in s)
    placed = _placements(server, "duo")
    assert [(p.player, p.card, p.column) for p in placed[:2]] == [(0, *first), (1, *second)]
    assert all(p.stand_in is None for p in placed)
    assert "Ana: connected (dvtuiana); Bob: connected (dvtuibob)" in _tables(server)


def test_one_shared_account_a_forced_command_per_key_seats_each_key_at_its_own_seat(
    host: tuple[Served, Sshd],
) -> None:
    """docs/SHARED_TABLES.md's ``authorized_keys`` lines, word for word: ``command="dvtui join friday --as
    Ana",restrict,pty``. What the client asks to run is ignored; without ``pty`` there is no table.
    The table keeps each seat for the shared account (``--invite``), as the page says: one account
    takes no second seat kept for nobody."""
    server, sshd = host
    _open(server, "friday", f"Ana={SHARED}", f"Bob={SHARED}")  # each seat kept for the one account
    ana, ana_public = sshd.new_key("ana")
    bob, bob_public = sshd.new_key("bob")
    bare, bare_public = sshd.new_key("bare")
    sshd.authorize(
        SHARED,
        f'command="dvtui join friday --as Ana",restrict,pty {ana_public}',
        f'command="dvtui join friday --as Bob",restrict,pty {bob_public}',
        f'command="dvtui join friday --as Bob",restrict {bare_public}',
    )
    sshd.open("bare", SHARED, bare, tty="")  # `ssh shared@host`, as a person types it
    sshd.open("ana", SHARED, ana, tty="")  # (the three logins at once: each starts in its own time)
    sshd.open("bob", SHARED, bob, "dvtui join friday --as Ana", tty="-t")  # asks for Ana's seat: gets his own
    said = _refused(sshd, "bare", code=2, noted=("PTY allocation request failed",))
    assert said.startswith("dvtui: error: the table needs a terminal")
    here = f"({SHARED}) (here)"  # the account beside each name that is not its own
    _wait_screen(sshd, "ana", "Ana's table", lambda s: "table friday" in s and "Ana (you)" in s and f"Bob {here}" in s)
    _wait_screen(sshd, "bob", "Bob's table", lambda s: "Bob (you)" in s and f"Ana {here}" in s)
    first = _place(sshd, "ana", server, "friday")
    second = _place(sshd, "bob", server, "friday")
    placed = _placements(server, "friday")
    assert [(p.player, p.card, p.column) for p in placed[:2]] == [(0, *first), (1, *second)]
    assert "Ana: connected (dvtuishared); Bob: connected (dvtuishared)" in _tables(server)
