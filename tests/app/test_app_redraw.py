"""What a key leaves as it was is neither mounted nor laid out again: choosing a card or a column
redraws the board and the hand, not the whole screen, the footer keeps its keys while they are the
same (and those at the same places when they change in part), a line added to the log lays nothing
out, nor does a resolution's next step while the banner keeps its rows; a resize matches the styles
once and sets the too-small notice only when it changes; a card drawn does not look its words up
again. Every key a person presses pays for what the screen does again."""

from __future__ import annotations

import pytest
from textual.dom import DOMNode
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget

from dvtui.app.textual_private import FooterKey
from dvtui.app.widgets import faces
from dvtui.app.widgets.board import Board
from dvtui.app.widgets.panels import Banner, EventLog
from dvtui.app.widgets.scoreboard import Scoreboard
from dvtui.app.widgets.table_view import TooSmall
from dvtui.engine import RoundEnded

from ..support.apps import PLAYERS, new_session, table_app
from ..support.pilot import press, resize, screen_lines, settled, text, until
from .driver import HUMAN, RESOLVING, choose, next_decision, table


@pytest.mark.parametrize("players", [PLAYERS, "Ana,Bea,Cid"])  # with bots; people at one keyboard (a banner)
async def test_choosing_a_card_and_a_column_lays_nothing_out_again(players: str) -> None:
    app = table_app(new_session(None, players))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)
        await press(pilot, "4")  # a card chosen: the footer offers to place it
        assert screen.query_one(Banner).display == (players != PLAYERS)  # whose turn it is, under the hand
        layouts: list[Screen[object]] = []
        screen.screen_layout_refresh_signal.subscribe(app, layouts.append, immediate=True)
        scores = text(screen.query_one(Scoreboard))
        board = screen.query_one(Board).board_lines(78, 10)
        await press(pilot, "c", "right", "5")
        assert screen.query_one(Board).board_lines(78, 10) != board  # the card is shown under the column
        assert text(screen.query_one(Scoreboard)) == scores
        assert layouts == []
        await press(pilot, "enter")  # placed: the hand on the scoreboard has lost the 5
        assert await next_decision(pilot, app) == HUMAN
        assert text(screen.query_one(Scoreboard)) != scores


async def test_the_footer_keeps_its_keys_while_they_are_the_same() -> None:
    app = table_app(new_session(None))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)
        await press(pilot, "4")
        keys = list(screen.query(FooterKey))
        assert [key.action for key in keys][:3] == ["pick(1)", "step(-1)", "place"]
        screen.refresh_bindings()  # (as when a key the footer does not show turns on or off)
        await settled(pilot)
        assert all(now is key for now, key in zip(screen.query(FooterKey), keys, strict=True))
        await press(pilot, "c", "enter")  # the bots' turn, then this side's again, with undo
        assert await next_decision(pilot, app) == HUMAN
        assert "undo" in [key.action for key in screen.query(FooterKey)]


async def test_a_resolution_lays_nothing_out_while_the_banner_keeps_its_rows_nor_does_the_footer_after_it() -> None:
    """Each column of a resolution says what was taken in the banner, on a row at 80x24: its words
    change, its rows do not, and the banner is drawn again, not laid out (the banner's own requests
    are counted: the screen may still be laid out for another reason, the log's scrollbar coming). Then from the
    resolution's keys (next step, skip, help, quit) to a placement's (card, column, place, hint,
    help, quit): the first two keys take their new words where they are, the keys beyond are
    mounted; the footer reads the new keys, and they work."""
    app = table_app(new_session(None))
    async with app.run_test(size=(80, 24)) as pilot:
        while (state := await next_decision(pilot, app)) == HUMAN:
            card, column = choose(table(app).session.game)
            await press(pilot, str(card), "abcdefg"[column], "enter")
        assert state == RESOLVING
        screen = table(app)
        resolving = ["next_step", "skip", "help", "quit"]  # (the footer follows a frame after the keys change)
        await until(pilot, "its keys", lambda: [key.action for key in screen.query(FooterKey)] == resolving)
        keys = list(screen.query(FooterKey))
        banner = screen.query_one(Banner)
        layouts: list[bool] = []  # the layouts the banner asked for
        refresh = banner.refresh

        def recorded(*regions: Region, layout: bool = False, **options: bool) -> Widget:
            layouts.append(layout)
            return refresh(*regions, layout=layout, **options)

        banner.refresh = recorded  # type: ignore[method-assign]
        said: list[str] = []
        while (resolution := screen.flow.resolution) and not isinstance(resolution.step.event, RoundEnded):
            rows, words = banner.size.height, text(banner)
            await press(pilot, "space")
            if banner.size.height == rows == 1:
                assert not any(layouts) and text(banner) != words
                said.append(text(banner))
            layouts.clear()
        assert len(said) >= 3
        await press(pilot, "space")  # the round's summary read: the next round
        assert await next_decision(pilot, app) == HUMAN
        await settled(pilot)  # (the footer follows the keys after the frame that changed them)
        now = list(screen.query(FooterKey))
        assert [key.action for key in now] == ["pick(1)", "step(-1)", "place", "hint", "help", "quit"]
        assert now[0] is keys[0] and now[1] is keys[1]  # the same widgets, with the new words
        footer = screen_lines(app)[-1]
        assert footer.startswith("1-6 card ←→ a-g column ⏎ place h hint") and "skip" not in footer
        await press(pilot, "4")
        assert screen.flow.cursor.card == 4


async def test_a_line_added_to_the_log_lays_nothing_out() -> None:
    """The log's rows are its share of the screen, whatever it holds: a line added redraws the
    log (and its scrollbar), scrolled to the newest line, and lays nothing else out."""
    app = table_app(new_session(None))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)
        log = screen.query_one(EventLog)
        for k in range(log.size.height + 1):  # more lines than its rows: it scrolls
            log.note(f"line {k}")
        await settled(pilot)
        assert log.show_vertical_scrollbar
        layouts: list[Screen[object]] = []
        screen.screen_layout_refresh_signal.subscribe(app, layouts.append, immediate=True)
        log.note("the newest line")
        await settled(pilot)
        assert layouts == []
        rows = screen_lines(app)[log.region.y : log.region.bottom]
        assert "the newest line" in rows[-1] and "line 0" not in "".join(rows)
        assert log.scroll_y == log.max_scroll_y == log.virtual_size.height - log.size.height
        assert log.vertical_scrollbar.window_virtual_size == log.virtual_size.height


async def test_a_resize_matches_the_styles_once_and_words_the_notice_only_when_it_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From 80x24 to a side panel the screen's ``-narrow`` goes and ``-wide`` comes: one pass of
    the styles over the screen, not one per class. The too-small notice's words are set (a layout)
    only when the size it asks for changes."""
    app = table_app(new_session(None))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)
        passes: list[DOMNode] = []
        styled = app.update_styles

        def counted(node: DOMNode, animate: bool = True) -> None:
            passes.append(node)
            styled(node, animate)

        monkeypatch.setattr(app, "update_styles", counted)
        notice = screen.query_one(TooSmall)
        worded: list[object] = []
        monkeypatch.setattr(notice, "update", lambda content: worded.append(content))
        await resize(pilot, 110, 30)
        assert screen.has_class("-wide") and not screen.has_class("-narrow")
        assert passes.count(screen) == 1
        await resize(pilot, 100, 30)
        await resize(pilot, 80, 24)
        assert passes.count(screen) == 2 and worded == []  # (100x30: stacked as at 80x24)
        await resize(pilot, 40, 12)
        await resize(pilot, 41, 12)
        assert len(worded) == 1 and "terminal too small" in str(worded[0])


@pytest.mark.usefixtures("french")
def test_the_goods_names_are_looked_up_once_per_language(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    looked_up = faces.pgettext

    def counted(context: str, message: str) -> str:
        asked.append(message)
        return looked_up(context, message)

    monkeypatch.setattr(faces, "pgettext", counted)
    labels = {faces.card_label(card, 20) for card in ["house-300", "holiday-700", "money-100"] * 20}
    assert labels == {"maison 300", "vacances 700", "argent 100"}
    assert len(asked) <= 8  # (none once the French names are known: a language's eight names at most)


async def test_the_palettes_key_comes_and_goes_with_the_side_panel_at_once() -> None:
    """Wide enough for the side panel, the footer offers the command palette's key; back at 80x24,
    not, and "q quit" is whole: each at the resize, not at the footer's next change of keys."""
    app = table_app(new_session(None))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        screen = table(app)

        def palette() -> bool:
            return any(key.has_class("-command-palette") for key in screen.query(FooterKey))

        assert not palette()
        for width, height in ((40, 20), (160, 50), (80, 24), (160, 50), (80, 24)):
            await resize(pilot, width, height)
            await settled(pilot)
            assert palette() == (width == 160), (width, height)
            assert (width == 40) or "q quit" in screen_lines(app)[-1]
