"""What the browser front refuses with. A leaf (it imports nothing of dvtui), so the command line
can catch both without importing the front, and turn each into its one-line error."""

from __future__ import annotations


class WebUsageError(Exception):
    """Input the browser front refuses as given: options of ``dvtui web`` that do not go together,
    a tab's person no table could seat. The command line's usage error (exit 2)."""


class WebError(Exception):
    """``dvtui web`` cannot serve: the web extra is missing, the table or its server is not there,
    the address is taken. One line, exit 1."""
