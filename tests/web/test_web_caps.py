"""``dvtui web``'s caps on tabs (each is a dvtui process): per person a proxy names, and in all. A
tab beyond them is refused in the page, with the reason: the page itself (503, its text), or,
when another tab took the last place after the page was served, its websocket's close, whose
reason the page shows in place of "session ended". A closed tab's place is free again."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from ..support.web import MENU, Pages, Tab, wait_until, web_server

pytestmark = pytest.mark.chromium

HEADER = "X-User"
ANA_FULL = "You have 1 tab of Dolce Vita open, the most per person: close one, then reload."
ALL_FULL = "Dolce Vita has 2 tabs open, its most: try again when one closes."


def page_refusal(url: str, user: str) -> tuple[int, str]:
    """The status of ``user``'s request for the page, and its text (a refusal's reason)."""
    request = urllib.request.Request(url + "/", headers={HEADER: user})
    try:
        with urllib.request.urlopen(request, timeout=60) as page:
            return int(page.status), page.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode().strip()


def page_status(url: str, user: str) -> int:
    return page_refusal(url, user)[0]


@pytest.mark.long
def test_tabs_beyond_the_caps_are_refused_in_the_page(pages: Pages, tmp_path: Path) -> None:
    args = ("--user-header", HEADER, "--max-tabs", "2", "--max-tabs-per-person", "1")
    with web_server(tmp_path / "data", *args) as (_, url):
        first = Tab(pages.new({HEADER: "ana"}))
        first.page.goto(url + "/")
        first.wait_for(MENU)

        second = pages.new({HEADER: "ana"})  # Ana's second tab: over her cap
        response = second.goto(url + "/")
        assert response is not None and response.status == 503
        assert second.inner_text("body").strip() == ANA_FULL

        waiting = second  # the same page, now Bob's: one page fewer (a new one costs Chromium a second)
        waiting.set_extra_http_headers({HEADER: "bob"})
        waiting.goto(url + "/?delay=1")  # a page served while there is room, its tab not yet opened
        bobs = Tab(pages.new({HEADER: "bob"}))
        bobs.page.goto(url + "/")  # Bob's tab takes the last place
        bobs.wait_for(MENU)

        assert page_refusal(url, "cy") == (503, ALL_FULL)  # as Ana's page above, what the browser shows

        # the waiting page's tab opens now, as its "Start" would: refused, and the page says why
        waiting.evaluate("new WebSocket(document.querySelector('#terminal').dataset.sessionWebsocketUrl)")
        wait_until(lambda: waiting.inner_text(".closed-dialog .message") == ALL_FULL, "the refusal in the page")

        pages.close(first.page)  # Ana's tab closes (its dvtui ends): her place, and one in all, are free again
        wait_until(lambda: page_status(url, "ana") == 200, "Ana's place to be free")
        assert page_status(url, "cy") == 200
        for page in (waiting, bobs.page):
            pages.close(page)
