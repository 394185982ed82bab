"""The window's entry point in the bundle (``clubdesk``): the same as the ``clubdesk`` gui-script.

On Linux the bundle has ONE program: ``clubdesk-cli`` is a link to it, and the name it is called by picks
the command line (each program carries the whole Python archive: one instead of two saves 15 MB).
"""

import os
import sys

if os.path.basename(sys.argv[0]).split(".")[0] == "clubdesk-cli":
    from clubdesk.cli import main
else:
    from clubdesk.app import main

raise SystemExit(main())
