"""A server's store and its peers are two things: it keeps its tables in the store, closed when it
stops, and asks its peers (the other servers on that store) what they wrote and who is at a table
through them; a server alone has peers that have nothing to say (``NoPeers``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from dvtui.play.session import PlaySession
from dvtui.server.peers import NoPeers
from dvtui.server.stores.base import Here
from dvtui.server.stores.files import FileStore

from ..support.raw import ask, speaking_for
from ..support.servers import in_thread, short_dir, wait_for


class ClosedStore(FileStore):
    """Files, saying whether the server closed its store (and when: after its tables' files)."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.closed = 0
        self.resting_at_close: list[str] = []
        self.rested: list[str] = []

    def rest(self, name: str, session: PlaySession) -> None:
        self.rested.append(name)
        super().rest(name, session)

    def close(self) -> None:
        self.closed += 1
        self.resting_at_close = list(self.rested)


class Listening(NoPeers):
    """Peers with nothing to say, which note what the server asks and tells them."""

    def __init__(self) -> None:
        self.followed: list[Callable[[str], None]] = []
        self.told: list[tuple[str, list[Here]]] = []

    def follow(self, news: Callable[[str], None]) -> None:
        self.followed.append(news)

    def tell_presence(self, name: str, here: list[Here], game: int | None = None) -> None:
        self.told.append((name, list(here)))


def test_a_server_closes_its_store_once_when_it_stops_after_its_tables_files() -> None:
    with short_dir() as d:
        store = ClosedStore(d / "games")
        with in_thread(d, store=store) as server:
            ana = speaking_for(str(server.place.socket), "ana")
            opened = {"type": "open_table", "table": "t", "players": ["ana", "bob", "bot:random"], "seed": 3}
            assert ask(ana, opened, "opened")["type"] == "opened"
            assert ask(ana, {"type": "join", "table": "t", "seat": 0}, "joined")["type"] == "joined"
            ana.close()
            assert store.closed == 0
        assert store.closed == 1
        assert "t" in store.resting_at_close  # the table's files were let go first


def test_a_server_follows_its_peers_and_tells_them_who_is_at_a_table() -> None:
    peers = Listening()
    with short_dir() as d, in_thread(d, peers=peers) as server:
        assert len(peers.followed) == 1  # from its start
        ana = speaking_for(str(server.place.socket), "ana")
        opened = {"type": "open_table", "table": "t", "players": ["ana", "bob", "bot:random"], "seed": 3}
        assert ask(ana, opened, "opened")["type"] == "opened"
        assert ask(ana, {"type": "join", "table": "t", "seat": 0}, "joined")["type"] == "joined"
        wait_for(
            "the peers told ana sits", lambda: any(n == "t" and [h.seat for h in h_] == [0] for n, h_ in peers.told)
        )
        ana.close()
