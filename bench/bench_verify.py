"""``dvtui verify DIR`` over 1,000 game files against msgspec alone decoding the same lines.

    python bench/bench_verify.py [--files N] [--repeat R]

Target: verify takes no more than 3x the time msgspec takes to decode the same lines. Both sides
read the files from disk; "msgspec alone" decodes each line into the typed events and does nothing
else. Verify is timed in-process (``run_verify``, output to /dev/null) and as the whole command.
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

import msgspec

from dvtui.cli import build_parser
from dvtui.cli.sim import simulate
from dvtui.cli.verify import run_verify
from dvtui.play.seats import parse_players
from dvtui.store.codec import line_decoder


def msgspec_alone(files: list[Path]) -> float:
    t = time.perf_counter()
    for p in files:
        data = p.read_bytes()
        for line in data.split(b"\n")[:-1]:
            line_decoder.decode(line)
    return time.perf_counter() - t


def msgspec_untyped(files: list[Path]) -> float:
    t = time.perf_counter()
    decode = msgspec.json.decode
    for p in files:
        for line in p.read_bytes().split(b"\n")[:-1]:
            decode(line)
    return time.perf_counter() - t


def verify_in_process(directory: Path) -> float:
    args = build_parser().parse_args(["verify", str(directory)])
    t = time.perf_counter()
    with redirect_stdout(io.StringIO()):
        status = run_verify(args)
    assert status == 0
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        mixes = [
            "bot:random,bot:greedy,bot:random",
            "bot:random,bot:random,bot:random,bot:random",
            "bot:random,bot:random,bot:random,bot:random,bot:random",
        ]
        per = args.files // len(mixes)
        for k, mix in enumerate(mixes):
            count = per if k < len(mixes) - 1 else args.files - per * (len(mixes) - 1)
            sub = d / f"m{k}"
            sub.mkdir()
            simulate(parse_players(mix, bots_only=True), count, seed=k * 100_000, out=sub)
            for p in sub.glob("*.dvr"):
                p.rename(d / f"{k}-{p.name}")
            sub.rmdir()
        files = sorted(d.glob("*.dvr"))
        lines = sum(p.read_bytes().count(b"\n") for p in files)
        print(f"{len(files)} files, {lines} lines, {sum(p.stat().st_size for p in files) / 1e6:.1f} MB")
        typed, untyped, verify = [], [], []
        for _ in range(args.repeat):
            typed.append(msgspec_alone(files))
            untyped.append(msgspec_untyped(files))
            verify.append(verify_in_process(d))
        m_t, m_u, m_v = (statistics.median(x) for x in (typed, untyped, verify))
        print(f"msgspec alone, typed events:  median {m_t * 1000:.1f} ms")
        print(f"msgspec alone, plain JSON:    median {m_u * 1000:.1f} ms")
        print(f"dvtui verify (in process):    median {m_v * 1000:.1f} ms")
        print(f"ratio verify / msgspec typed: {m_v / m_t:.2f}x   (target <= 3x)")
        print(f"ratio verify / msgspec plain: {m_v / m_u:.2f}x")
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "dvtui", "verify", str(d)], check=True, capture_output=True)
        print(f"`dvtui verify DIR` whole command: {(time.perf_counter() - t) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
