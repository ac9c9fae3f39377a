"""The server's limits as docs/PROTOCOL.md states them are the code's defaults: each ``--limit``
name of the document's table is a field of :class:`Limits`, and its number is that field's value."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from dvtui.tables.limits import Limits

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
