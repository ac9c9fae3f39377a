"""The Textual app: every command that shows a screen (plain ``dvtui``, ``new``, ``resume``,
``replay``, ``join``, ``watch``, and each browser tab of ``dvtui web``) runs one app, started on the
screen that command asks for.

Textual-free, importable by headless code: ``config``, ``theme``, ``exit_state`` (how a run ended,
what the app returns), ``flow`` (the turn at the live table: cursor, resolution, what a key may do) and ``host``
(what a screen may ask of the app). Textual: ``app`` (the application), ``messages`` (what screens
ask of it, tell each other, and what their workers tell them), ``keys`` (every key of the table and
the viewer, with its footer word, help row and palette entry), ``screens/`` (one module per screen
or dialog) and ``widgets/`` (each draws any game state it is given). The game being
played is :mod:`dvtui.play`'s.
"""
