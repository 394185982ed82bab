"""The window's entry point in the bundle (``clubdesk``): the same as the ``clubdesk`` gui-script.

On Linux the bundle has ONE program: ``clubdesk-cli`` is a link to it, and the name it is called by picks
the command line (each program carries the whole Python archive: one instead of two saves 15 MB).
"""

import multiprocessing
import os
import sys

# ``serve --workers N`` starts its other processes by running this program again (spawn): they must
# become those processes here, before any window or command line
multiprocessing.freeze_support()

try:
    if os.path.basename(sys.argv[0]).split(".")[0] == "clubdesk-cli":
        from clubdesk.cli import main
    else:
        from clubdesk.app import main
    code = main()
except KeyboardInterrupt:
    code = 130  # Ctrl+C while it was still starting: it ends as a shell expects, not with a traceback
raise SystemExit(code)
