"""Instructions per `dvtui sim` game and per `dvtui verify` file, counted by valgrind (callgrind).

Wall-clock rates on a shared machine move by 5-10% from one minute to the next; the number of
machine instructions does not, so it is the figure to compare two versions of the engine with
(fewer instructions is not always less time, but it is a steady signal).

    python bench/bench_instructions.py [--games 300] [--files 50]

Needs ``valgrind`` (apt-get install valgrind). Each count is the difference between a run doing
the work and one doing none, so start-up and imports are left out.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SIM = """
import sys
from dvtui.cli.sim import simulate
from dvtui.play.seats import parse_players
simulate(parse_players("bot:random,bot:random,bot:random", bots_only=True), int(sys.argv[1]), seed=1000)
"""

VERIFY = """
import io, sys
from contextlib import redirect_stdout
from dvtui.cli import build_parser
from dvtui.cli.verify import run_verify
args = build_parser().parse_args(["verify", sys.argv[2]])
with redirect_stdout(io.StringIO()):
    for _ in range(int(sys.argv[1])):
        run_verify(args)
"""


def instructions(script: str, *args: str) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    match = re.search(r"Collected\s*:\s*(\d+)", out)
    if match is None:
        raise RuntimeError(f"no instruction count in valgrind's output: {out[-300:]}")
    return int(match.group(1))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--files", type=int, default=50)
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions: valgrind is not installed (apt-get install valgrind)")
    per_game = (instructions(SIM, str(args.games)) - instructions(SIM, "0")) / args.games
    print(f"dvtui sim, 3 random bots: {per_game:,.0f} instructions per game ({args.games} games)")
    from dvtui.cli.sim import simulate
    from dvtui.play.seats import parse_players

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        simulate(parse_players("bot:random,bot:random,bot:random", bots_only=True), args.files, seed=7, out=d)
        one = instructions(VERIFY, "1", tmp)
        five = instructions(VERIFY, "5", tmp)
    print(
        f"dvtui verify, 3-player files: {(five - one) / (4 * args.files):,.0f} instructions per file "
        f"({args.files} files, read 4 more times)"
    )


if __name__ == "__main__":
    main()
