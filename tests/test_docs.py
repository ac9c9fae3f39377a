"""The documents point at files that are there: a relative link, or a path in backticks that
names a file of the repository (``docs/...``, ``../...``), is checked against the tree; a link to a
section (``PAGE.md#section``, ``#section``) names a heading of that page, so moving a paragraph to
another page cannot leave a link behind."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
QUOTED_PATH = re.compile(r"`((?:\.\./|docs/|bench/|tests/|dvtui/)[^`\s*]+)`")
SECTION_LINK = re.compile(r"\]\(([^)\s#]*)#([^)\s]+)\)")


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


def sections(document: Path) -> set[str]:
    """The anchors of ``document``'s headings, as GitHub makes them: lower case, punctuation
    dropped, spaces as ``-`` (a ``#`` line inside a code block is no heading)."""
    anchors = set()
    in_code = False
    for line in document.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (heading := re.match(r"#+ (.*)", line)):
            anchors.add(re.sub(r"[^\w\- ]", "", heading[1].strip().lower()).replace(" ", "-"))
    return anchors


def test_a_headings_anchor_is_made_as_github_makes_it() -> None:
    """The check below can fail: a heading's punctuation is dropped, its spaces become dashes."""
    page = REPO / "docs" / "PROTOCOL.md"
    assert "identity-accounts-and-vouched-people" in sections(page)
    assert "client-to-server" in sections(page)
    assert "example" in sections(page) and "Example" not in sections(page)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_section_a_document_links_to_is_there(document: Path) -> None:
    missing = []
    for target, anchor in SECTION_LINK.findall(document.read_text()):
        page = (document.parent / target) if target else document
        if "://" in target or not page.exists():
            continue  # another site, or a missing file (the test above says so)
        if anchor not in sections(page):
            missing.append(f"{target}#{anchor}")
    assert missing == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_a_document_is_a_page_of_its_own_one_title_and_no_level_skipped(document: Path) -> None:
    """Each page opens with its one ``# title``, and a heading is at most one level below the one
    before it (a section moved in from another page keeps no level of its old place)."""
    levels = []
    in_code = False
    for line in document.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (heading := re.match(r"(#+) ", line)):
            levels.append(len(heading[1]))
    assert levels[:1] == [1] and levels.count(1) == 1, levels
    assert all(b <= a + 1 for a, b in pairwise(levels)), levels
