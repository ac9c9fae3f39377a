"""Start-up of the headless commands (target: well under 150 ms, and Textual never imported).

    python bench/bench_startup.py [--repeat R] [--lang CODE]

``--lang fr``: the commands speak French (their catalogue compiled on the way, as a source
checkout does when no ``.mo`` is built).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPLAY = Path(__file__).resolve().parent.parent / "replays" / "game.dvr"


def timed(cmd: list[str], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--lang", default="en", help="the language the commands speak (default en)")
    args = ap.parse_args()
    py = sys.executable
    dvtui = [py, "-m", "dvtui", "--lang", args.lang]
    cases = {
        "python -c pass (floor)": [py, "-c", "pass"],
        "dvtui verify replays/game.dvr": [*dvtui, "verify", str(REPLAY)],
        "dvtui sim --games 1": [*dvtui, "sim", "--players", "bot:random,bot:random,bot:random", "--games", "1"],
    }
    print(f"language: {args.lang}")
    for name, cmd in cases.items():
        runs = timed(cmd, args.repeat)
        print(f"{name:<34} median {statistics.median(runs) * 1000:6.1f} ms  min {min(runs) * 1000:6.1f} ms")
    probe = "import sys, dvtui.cli, dvtui.cli.verify, dvtui.cli.sim; print('textual' in sys.modules)"
    loaded = subprocess.run([py, "-c", probe], check=True, capture_output=True, text=True).stdout.strip()
    print(f"textual imported by the headless commands: {loaded}")


if __name__ == "__main__":
    main()
