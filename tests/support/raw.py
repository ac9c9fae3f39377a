"""A client of the table protocol in the standard library alone (socket + json), as a program in
any language would write one: the tests run it as another Unix user, whose Python has nothing of
dvtui, and the fuzz test speaks through it.

Run as a script: ``python raw.py SOCKET SCRIPT_JSON`` sends each message of the script (a list of
objects, or ``{"raw": "..."}`` for bytes as they are) and prints every reply as one JSON line.
"""

from __future__ import annotations

import json
import socket
import sys
from typing import Any

FEATURES = ["waiting", "clock", "chat", "close", "rematch"]
"""What a client of today's protocol says it understands (``hello.features``); a client that says
nothing is sent only the protocol's first vocabulary."""


class RawClient:
    def __init__(self, path: str, timeout: float = 60.0) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""

    def send(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.sock.sendall(data)

    def receive(self) -> dict[str, Any] | None:
        """The next message, or None once the server has closed the connection."""
        while b"\n" not in self.buffer:
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:
                return None
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def until(self, kind: str) -> dict[str, Any]:
        """Messages up to the first of type ``kind`` (an error stops there too); returns it."""
        while True:
            message = self.receive()
            if message is None:
                raise ConnectionError(f"closed while waiting for {kind}")
            if message["type"] in (kind, "error"):
                return message

    def hello(self, features: list[str] | None = FEATURES) -> dict[str, Any]:
        """Say hello (``features`` None: as a client of the protocol's first vocabulary)."""
        said = {} if features is None else {"features": features}
        self.send({"type": "hello", "version": 1, "client": "raw", **said})
        return self.until("welcome")

    def close(self) -> None:
        self.sock.close()


def speaking_for(socket_path: str, user: str, features: list[str] | None = FEATURES) -> RawClient:
    """A connection greeted as speaking for ``user`` (an account the server trusts to vouch: the
    test's own, which runs the server); ``features`` as :meth:`RawClient.hello` says."""
    client = RawClient(socket_path)
    client.send({"type": "hello", "version": 1, "user": user, **({} if features is None else {"features": features})})
    assert client.until("welcome")["type"] == "welcome"
    return client


def ask(client: RawClient, message: dict[str, Any], kind: str) -> dict[str, Any]:
    """Send ``message`` and return the first reply of type ``kind``."""
    client.send(message)
    return client.until(kind)


def main() -> None:
    path, script = sys.argv[1], json.loads(sys.argv[2])
    client = RawClient(path)
    for step in script:
        if "raw" in step:
            client.send(step["raw"].encode())
            continue
        expect = step.pop("expect", None)
        client.send(step)
        if expect is not None:
            print(json.dumps(client.until(expect)), flush=True)
    client.close()


if __name__ == "__main__":
    main()
