"""The browser the web tests drive: the system's Chromium, one for the whole run; each test takes
pages of it that the tests before it left (:class:`Pages`), or new ones.

While Playwright's sync API is up, its event loop counts as running in this thread, and an asyncio
test (``asyncio.run``, pytest-asyncio) refuses to start: the tests that use the browser run last,
one after another, so that no other test runs while it is up."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from ..support.web import CHROMIUM, Pages


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    uses = [item for item in items if "browser" in getattr(item, "fixturenames", ())]
    if uses:
        rest = [item for item in items if "browser" not in getattr(item, "fixturenames", ())]
        items[:] = rest + uses


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def free_pages(browser: Browser) -> list[Page]:
    """The pages of the run's browser that no test uses now (:class:`Pages`)."""
    return []


@pytest.fixture
def pages(browser: Browser, free_pages: list[Page]) -> Iterator[Pages]:
    """This test's pages of the run's browser, each taken again by a test after it."""
    lent = Pages(browser, free_pages)
    yield lent
    lent.give_back()
