"""The command line's entry point in the bundle (``clubdesk-cli``), as the ``clubdesk-cli`` script."""

from clubdesk.cli import main

raise SystemExit(main())
