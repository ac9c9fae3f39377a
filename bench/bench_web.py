"""``dvtui web`` in a real browser (run by hand; prints numbers, asserts nothing):

    python bench/bench_web.py              # 5 page loads, 30 keys
    python bench/bench_web.py --loads 10 --keys 100
    python bench/bench_web.py --gap 3      # 3 s between page loads, as people open tabs

- page load: from the start of the navigation to the first frame that shows the start menu (the
  app is drawn and takes keys), as the page itself sees it (``performance.now()``); this includes
  starting the tab's own dvtui process. Target: at most 1.5 s.
  It prints its stages apart: the page's own part until it opens its socket (HTML, textual.js,
  xterm.js), the socket's handshake, the tab's dvtui until its first bytes, and the menu's drawing.
- key to screen: from a key's ``keydown`` in the page to the next animation frame after the first
  message the server sent back (the menu's highlight moves: the app's answer, on screen). Target:
  at most 100 ms.

The system's Chromium through Playwright, as the tests (tests/web); ``dvtui web`` on a free port of
localhost with an empty data dir.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
"""The system's Chromium (.ci/setup-system.sh installs it): Playwright downloads no browser here."""

MENU = "New game: choose the seats"

# Stamps in the page's own clock: each key's keydown, and each server message with the animation
# frame that follows it (when xterm.js has drawn it); the menu's first frame is found by its text.
PROBE = """
window.__keys = []; window.__shown = []; window.__menu = null; window.__socket = null;
window.__opened = null; window.__first = null;
document.addEventListener("keydown", () => window.__keys.push(performance.now()), true);
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    window.__socket = performance.now();
    const text = new TextDecoder();
    this.addEventListener("open", () => { window.__opened = performance.now(); });
    this.addEventListener("message", (event) => {
      // the first of the app's own output (binary; text messages are the server's, a pong)
      if (window.__first === null && typeof event.data !== "string") window.__first = performance.now();
      const data = typeof event.data === "string" ? event.data : text.decode(event.data);
      requestAnimationFrame(() => {
        const at = performance.now();
        window.__shown.push(at);
        if (window.__menu === null && data.includes(MENU_TEXT)) window.__menu = at;
      });
    });
  }
};
""".replace("MENU_TEXT", json.dumps(MENU))


STAMPS = ("__socket", "__opened", "__first", "__menu")
STAGES = (
    ("  page", "until the page opens its socket: HTML, textual.js, xterm.js"),
    ("  handshake", "until the socket is open (the server has the tab's dvtui by then)"),
    ("  first bytes", "until the tab's dvtui sends its first message"),
    ("  menu drawn", "until the start menu is on screen"),
)


@contextlib.contextmanager
def web_server(data: Path) -> Iterator[str]:
    """``dvtui web`` of this checkout on a free port of localhost, saving in ``data``: the page's
    address (no slash at the end), until the block ends."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data.mkdir(parents=True, exist_ok=True)
    log = data.parent / "web.log"
    env = {**os.environ, "DVTUI_DATA_DIR": str(data)}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "dvtui", "web", "--port", str(port)], stdout=out, stderr=subprocess.STDOUT, env=env
        )
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"Dolce Vita in the browser: (\S+)", log.read_text())):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"dvtui web did not start: {log.read_text()}")
            time.sleep(0.05)
        yield found.group(1).rstrip("/")
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def page_load(page: Page, url: str) -> list[float]:
    """The page's stamps, in its own clock from the start of the navigation: the socket made,
    open, its first message, and the menu's first frame (the page load)."""
    page.goto(url + "/")
    page.wait_for_function("window.__menu !== null", timeout=60_000)
    return [float(page.evaluate(f"window.{stamp}")) for stamp in STAMPS]


def key_to_screen(page: Page, key: str) -> float:
    page.wait_for_timeout(150)  # the screen at rest, so the next frame answers this key
    before = int(page.evaluate("window.__shown.length"))
    page.keyboard.press(key)
    page.wait_for_function(f"window.__shown.length > {before}", timeout=10_000)
    pressed = float(page.evaluate("window.__keys[window.__keys.length - 1]"))
    shown = float(page.evaluate(f"window.__shown[{before}]"))
    return shown - pressed


def summary(name: str, values: list[float], target: float) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    verdict = "within" if p90 <= target else "OVER"
    return (
        f"{name:14} n={len(values):3}  median {statistics.median(values):7.1f} ms  p90 {p90:7.1f} ms  "
        f"max {values[-1]:7.1f} ms  (target {target:.0f} ms: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--keys", type=int, default=30)
    parser.add_argument(
        "--gap",
        type=float,
        default=0.0,
        help="seconds between two page loads (people open tabs seconds apart, not back to back)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, web_server(Path(tmp) / "data") as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        stamps: list[list[float]] = []
        for _ in range(args.loads):
            time.sleep(args.gap)
            page = browser.new_page(viewport={"width": 1100, "height": 700})
            page.add_init_script(PROBE)
            stamps.append(page_load(page, url))
            page.close()
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        page.add_init_script(PROBE)
        page_load(page, url)
        page.focus(".xterm-helper-textarea")
        keys = [key_to_screen(page, "ArrowDown" if i % 2 == 0 else "ArrowUp") for i in range(args.keys)]
        browser.close()
    print(summary("page load", [s[-1] for s in stamps], 1500))
    for i, (name, what) in enumerate(STAGES):  # each stage's own part of it
        print(summary(name, [s[i] - (s[i - 1] if i else 0.0) for s in stamps], 1500) + f"  <- {what}")
    print(summary("key to screen", keys, 100))


if __name__ == "__main__":
    main()
