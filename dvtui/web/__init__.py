"""The browser front: ``dvtui web`` serves the app to browser tabs through textual-serve (the
optional ``web`` extra), each tab a dvtui process of its own.

- :mod:`.serve`: the command's body (its options checked, the address bound, the server run);
- :mod:`.server`: textual-serve's server and each tab's service, as dvtui serves them (the spare,
  the login proxy's person, the tab caps);
- :mod:`.serve_private`: every private name of textual-serve the two above build on, and nothing else;
- :mod:`.tab`: the tab's side, in the dvtui process a tab runs (its person, the spare's wait);
- :mod:`.errors`: what it refuses with, which the command line turns into its one-line error;
- ``page/``: the page's template.

Nothing here imports the app: a tab's app runs in a process of its own, started by command.
Importing this package imports nothing: the tab side is on every dvtui's way to its first screen.
"""
