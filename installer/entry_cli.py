"""The command line's entry point in the bundle (``clubdesk-cli``), as the ``clubdesk-cli`` script."""

import multiprocessing

from clubdesk.cli import main

# ``serve --workers N`` starts its other processes by running this program again (spawn): they must
# become those processes here, before the command line
multiprocessing.freeze_support()

raise SystemExit(main())
