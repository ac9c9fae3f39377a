"""Games being played, without a screen: a session (a game, its file and who decides), bots
playing on their own (autoplay), the seats as typed on the command line, and tournaments.

Textual-free: ``dvtui sim`` and ``dvtui resume --headless`` run on it, and the app plays through it.
"""
