"""The Textual app: ``dvtui new``, ``dvtui resume`` (and the replay viewer built on the same parts).

Textual-free, importable by headless code: ``config`` and ``theme``. Textual: ``app`` (the
application), ``messages`` (what screens ask of it), ``keys`` (every key of the table and the
viewer, with its footer word, help row and palette entry), ``screens/`` (set-up, table, end, help) and
``widgets/`` (board, hand, scoreboard, panels, chart, the table view: each draws any game state it
is given). The game being played is :mod:`dvtui.play`'s.
"""
