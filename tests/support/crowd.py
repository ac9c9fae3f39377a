"""Many connections to a table server at once, in the standard library alone (run as another Unix
user, whose Python has nothing of dvtui), as a co-user attacking the server would open them.

``python crowd.py SOCKET SPEC_JSON``: opens ``n`` connections; on each sends ``hello`` (if
``hello``), then, once every hello is answered (a connection's messages that wait their account's
turn would hold up the hellos of the others), ``send`` on each (a list of messages, each an object,
or a string sent as it is, such as a line never ended), then watches them all for ``seconds`` (less
if every one is closed), sending ``list_tables`` on each every ``keepalive`` seconds if given, and
ends early once its standard input closes if ``hold`` (so a test holds the connections as long as
it needs), or once every connection was answered and ``until_closed`` of them (if given) were
closed by the server (so a test that expects that many refusals need not wait ``seconds``). Prints
``{"ready": true}`` once each connection's ``hello`` is answered (or at once without ``hello``),
``{"first": true}`` once any connection received a line (if ``first``: a test that holds more
connections than the server accepts knows then that those it accepted are being answered), then at
the end one JSON line: for each connection, the types (errors as ``error:CODE``) it received, and
whether the server closed it.
"""

from __future__ import annotations

import json
import select
import socket
import sys
import time
from typing import Any


def main() -> None:
    path, spec = sys.argv[1], json.loads(sys.argv[2])
    socks: list[socket.socket] = []
    for _ in range(spec["n"]):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        socks.append(s)
    received: list[list[str]] = [[] for _ in socks]
    closed = [False] * len(socks)
    buffers = [b""] * len(socks)

    def send() -> None:
        for i, s in enumerate(socks):
            for message in spec.get("send", []) if not closed[i] else []:
                try:
                    s.sendall(message.encode() if isinstance(message, str) else json.dumps(message).encode() + b"\n")
                except OSError:  # (refused meanwhile: its end is read below)
                    break

    for s in socks:
        if spec.get("hello"):
            s.sendall(b'{"type":"hello","version":1,"client":"crowd"}\n')
    ready = not spec.get("hello")
    if ready:
        send()
        print(json.dumps({"ready": True}), flush=True)
    end = time.monotonic() + spec["seconds"]
    keepalive = spec.get("keepalive")
    next_keepalive = time.monotonic() + keepalive if keepalive else float("inf")
    held = bool(spec.get("hold"))
    until_closed = spec.get("until_closed", len(socks))
    first = not spec.get("first")

    def done() -> bool:
        answered = all(closed[i] or received[i] for i in range(len(socks)))
        return all(closed) or (answered and sum(closed) >= until_closed)

    while time.monotonic() < end and not done():
        open_socks: list[Any] = [s for i, s in enumerate(socks) if not closed[i]]
        readable, _, _ = select.select([*open_socks, sys.stdin] if held else open_socks, [], [], 0.1)
        if sys.stdin in readable:
            if not sys.stdin.readline():
                break
            readable.remove(sys.stdin)
        for s in readable:
            i = socks.index(s)
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                closed[i] = True
                continue
            buffers[i] += chunk
            *lines, buffers[i] = buffers[i].split(b"\n")
            for line in lines:
                message: dict[str, Any] = json.loads(line)
                kind = message["type"]
                received[i].append(f"error:{message['code']}" if kind == "error" else kind)
        if not first and any(received):
            first = True
            print(json.dumps({"first": True}), flush=True)
        if not ready and all(closed[i] or received[i] for i in range(len(socks))):
            ready = True
            send()
            print(json.dumps({"ready": True}), flush=True)
        if time.monotonic() >= next_keepalive:
            next_keepalive += keepalive
            for i, s in enumerate(socks):
                if not closed[i] and "welcome" in received[i]:
                    try:
                        s.sendall(b'{"type":"list_tables"}\n')
                    except OSError:
                        closed[i] = True
    print(json.dumps({"received": received, "closed": closed}), flush=True)
    for s in socks:
        s.close()


if __name__ == "__main__":
    main()
