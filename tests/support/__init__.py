"""Helpers the tests share, one module per kind: game files (``files``), positions (``positions``),
dvtui as a process (``processes``, and scenarios run in a fresh interpreter: the garbage
collector's in ``collector``), table servers and their clients (``servers``, with ``raw`` and
``crowd``, scripts another account runs), terminals (``terminals``), an SSH server (``sshd``), the
app (``apps``, ``pilot``), the replay viewer (``replays``) and the browser front (``web``).

Fixtures stay in the ``conftest.py`` files; a test imports helpers from here or from its own
directory, never from a conftest or another test module (tests/test_suite_shape.py checks it).
"""
