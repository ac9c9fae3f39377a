"""One resolution banner: the live table and the replay viewer say a column's resolution and a
round's end in the same words (``widgets/table_view``), and give each moment the same rhythm: a
quiet column passes quickly, a round's end lingers."""

from __future__ import annotations

from collections.abc import Callable

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions
from dvtui.app.screens.replay import BEAT, STEP_HINT, ReplayScreen
from dvtui.app.widgets.panels import Banner
from dvtui.app.widgets.table_view import QUIET, ROUND_END, linger
from dvtui.engine import ColumnResolved, Event, GameCreated, RoundEnded

from .driver import hot_seat_session, play_exchange_and_tie, table

LIVE_HINTS = ("   ⏎: next · s: skip", "  ⏎ next")
"""What the table adds after the banner's words: its keys."""


def head(banner: Banner) -> str:
    """The banner's first line, without the keys a screen adds to it."""
    line = banner.text.plain.split("\n")[0]
    for hint in (*LIVE_HINTS, STEP_HINT):
        line = line.removesuffix(hint)
    return line


async def test_a_resolution_reads_the_same_live_and_in_time_travel(
    make_created: Callable[..., GameCreated],
) -> None:
    app = DvtuiApp(hot_seat_session(make_created), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    async with app.run_test(size=(120, 40)) as pilot:
        await play_exchange_and_tie(pilot)
        screen = table(app)
        live: list[tuple[Event, str]] = []
        while screen.flow.resolution:
            live.append((screen.flow.resolution.step.event, head(screen.query_one(Banner))))
            await pilot.press("space")
        assert [type(event) for event, _ in live] == [ColumnResolved] * 7 + [RoundEnded]
        assert live[1][1].startswith(" Column B ") and "tie" in live[1][1]  # the exchange and the tie
        await pilot.press("t")
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        for event, words in live:
            viewer.go(viewer.replay.events.index(event))
            await pilot.pause()
            seen = head(viewer.query_one(Banner))
            if isinstance(event, ColumnResolved):
                assert seen == words
                assert viewer._beat() == BEAT * (1.0 if event.awards or event.cancelled else QUIET)
            else:  # the viewer has no room for the gains below: every total on the same line
                assert words == " Round 1 is over  Ben starts round 2"
                assert seen.startswith(" Round 1 is over  Ana ") and seen.endswith(" · Ben starts round 2")
                assert viewer._beat() == BEAT * ROUND_END


def test_a_quiet_column_passes_quickly_and_a_rounds_end_lingers() -> None:
    quiet = ColumnResolved(round=1, column=2, totals=[0, 0, 0], cancelled=[], awards=[], rotated=True)
    tie = ColumnResolved(round=1, column=1, totals=[0, 4, 4], cancelled=[1, 2], awards=[], rotated=False)
    assert linger(quiet) == QUIET < linger(tie) == 1.0 < linger(RoundEnded(round=1, next_first_player=1)) == ROUND_END
