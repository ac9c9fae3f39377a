"""The server's limits as docs/PROTOCOL.md states them are the code's defaults: each ``--limit``
name of the document's table is a field of :class:`Limits`, and its number is that field's value."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from dvtui.server.limits import Limits
from dvtui.server.live import MAX_LOG_LINES
from dvtui.server.registry import IDLE_SECONDS, TABLES_PER_OPENER, UNJOINED_SECONDS
from dvtui.tables.undos import MAX_UNDOS_PER_ROUND
from dvtui.tables.wire import MAX_ERROR_CHARS, MAX_LINE_BYTES

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
NUMBER = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(MiB|KiB)?")
UNIT = {"": 1, "KiB": 1024, "MiB": 1024 * 1024}


def documented_limits() -> dict[str, float]:
    """``--limit`` name -> the number the Limits table of the protocol's document gives it."""
    text = PROTOCOL.read_text()
    table = text[text.index("## Limits") :].split("\n## ", 1)[0]
    found: dict[str, float] = {}
    for row in table.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) != 4 or not re.fullmatch(r"(`[a-z-]+`(, )?)+", cells[3]):
            continue
        names = re.findall(r"`([a-z-]+)`", cells[3])
        numbers = [float(n.replace(",", "")) * UNIT[unit] for n, unit in NUMBER.findall(cells[1])]
        assert len(numbers) >= len(names), row
        found.update(zip(names, numbers, strict=False))
    return found


def test_every_limit_the_protocol_states_is_the_servers_default() -> None:
    documented = documented_limits()
    defaults = {f.name.replace("_", "-"): getattr(Limits(), f.name) for f in dataclasses.fields(Limits)}
    assert sorted(documented) == sorted(defaults)  # every limit is documented, and only those
    for name, value in defaults.items():
        assert documented[name] == value, (name, documented[name], value)


def manual() -> str:
    """The README and every page of docs/, as one text (a number may live on any of them)."""
    root = PROTOCOL.parents[1]
    return " ".join([(root / "README.md").read_text(), *(p.read_text() for p in sorted((root / "docs").glob("*.md")))])


def test_the_tables_own_bounds_are_stated_as_the_code_has_them() -> None:
    """A table's life (its opener's quota, when it is put aside), the undos of a round and the log's
    bound: the manual's words carry the code's numbers."""
    text = " ".join(manual().split())  # a sentence may wrap anywhere
    assert f"at most {TABLES_PER_OPENER} tables listed at once" in text
    assert f"nobody has taken a seat there for {UNJOINED_SECONDS / 3600:g} hours" in text
    assert f"nothing was played for {IDLE_SECONDS / 86400:g} days" in text
    assert f"at most {MAX_UNDOS_PER_ROUND} times per seat in a round" in text
    assert f"bounded at {MAX_LOG_LINES:,} lines" in text


def test_the_protocols_line_and_message_bounds_are_the_codes() -> None:
    text = " ".join(PROTOCOL.read_text().split())
    assert f"A line is at most **{MAX_LINE_BYTES:,} bytes**" in text
    assert f"at most {MAX_ERROR_CHARS} printable characters" in text
