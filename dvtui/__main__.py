from dvtui.cli import main

raise SystemExit(main())
