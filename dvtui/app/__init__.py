"""The Textual app: ``dvtui new``, ``dvtui resume`` and ``dvtui replay`` (one app, started on the
table, the set-up screen, the start menu or the replay viewer).

Textual-free, importable by headless code: ``config``, ``theme`` and ``exit_state`` (how a run ended,
what the app returns). Textual: ``app`` (the application), ``messages`` (what screens ask of it,
tell each other, and what their workers tell them), ``keys`` (every key of the table and the
viewer, with its footer word, help row and palette entry), ``screens/`` (set-up, table, end, help) and
``widgets/`` (board, hand, scoreboard, panels, chart, the table view: each draws any game state it
is given). The game being played is :mod:`dvtui.play`'s.
"""
