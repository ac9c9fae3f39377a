"""How many tabs ``dvtui web`` keeps open at once, in all and per person: the caps and their
count. Textual-serve-free, so the command checks its options before the extra is imported."""

from __future__ import annotations

from ..i18n import _, ngettext

DEFAULT_MAX_TABS = 16
"""Tabs open at once, in all, unless ``--max-tabs`` says otherwise: each is a dvtui process of
about 50 MB, so the default bounds ``dvtui web`` near 800 MB whoever opens them."""
DEFAULT_MAX_TABS_PER_PERSON = 4
"""Tabs open at once per person a login proxy names (``--max-tabs-per-person``): one person's
tabs leave room for others'."""


class TabCaps:
    """How many tabs are open, in all and per person, against their caps: a tab counts from its
    websocket's opening to its dvtui's end."""

    def __init__(self, total: int, per_person: int) -> None:
        self.total = total
        self.per_person = per_person
        self.open: dict[str | None, int] = {}

    def refusal(self, person: str | None) -> str | None:
        """Why ``person`` (None: nobody's, no login proxy) may not open one more tab now, in the
        page's words (None: they may)."""
        if sum(self.open.values()) >= self.total:
            return _("Dolce Vita has {n} tabs open, its most: try again when one closes.").format(n=self.total)
        if person is not None and self.open.get(person, 0) >= self.per_person:
            said = ngettext(
                "You have {n} tab of Dolce Vita open, the most per person: close one, then reload.",
                "You have {n} tabs of Dolce Vita open, the most per person: close one, then reload.",
                self.per_person,
            )
            return said.format(n=self.per_person)
        return None

    def opened(self, person: str | None) -> None:
        self.open[person] = self.open.get(person, 0) + 1

    def closed(self, person: str | None) -> None:
        self.open[person] -= 1
        if not self.open[person]:
            del self.open[person]
