"""``python -m dvtui``. Python puts the working directory first on the import path for ``-m``, so
a ``dvtui`` folder there (the parent of a clone is one) is imported as an empty namespace package
in place of the installed dvtui, which an editable install's finder then never gets to supply.
When that happened, run again with ``-P`` (the working directory left off the path), keeping the
interpreter's other options, the arguments and the environment."""

import os
import sys

if getattr(sys.modules.get("dvtui"), "__file__", None) is None and not sys.flags.safe_path:
    os.execv(sys.executable, [sys.orig_argv[0], "-P", *sys.orig_argv[1:]])

from dvtui.cli import main

raise SystemExit(main())
