"""The command line's entry point in the bundle (``clubdesk-cli``), as the ``clubdesk-cli`` script."""

import multiprocessing

# ``serve --workers N`` starts its other processes by running this program again (spawn): they must
# become those processes here, before the command line
multiprocessing.freeze_support()

try:
    from clubdesk.cli import main

    code = main()
except KeyboardInterrupt:
    code = 130  # Ctrl+C while it was still starting: it ends as a shell expects, not with a traceback
raise SystemExit(code)
