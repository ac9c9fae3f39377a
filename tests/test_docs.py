"""The documents point at files that are there: a relative link, or a path in backticks that
names a file of the repository (``docs/...``, ``../...``), is checked against the tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
QUOTED_PATH = re.compile(r"`((?:\.\./|docs/|bench/|tests/|dvtui/)[^`\s*]+)`")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_file_a_document_points_at_is_there(document: Path) -> None:
    text = document.read_text()
    missing = []
    for target in LINK.findall(text):
        if "://" in target or target.startswith("mailto:"):
            continue
        if not (document.parent / target).exists():
            missing.append(target)
    for target in QUOTED_PATH.findall(text):
        base = document.parent if target.startswith("../") else REPO
        if not (base / target).exists():
            missing.append(target)
    assert missing == []
