"""The Textual app: ``dvtui new``, ``dvtui resume`` (and the replay viewer built on the same parts).

Textual-free, importable by headless code: ``session`` (a game, its file and who decides),
``config`` and ``theme``. Textual: ``app`` (the application), ``screens/`` (set-up, table, end, help) and
``widgets/`` (board, hand, scoreboard, panels, chart: each draws any game state it is given).
"""
