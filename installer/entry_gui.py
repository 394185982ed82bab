"""The window's entry point in the bundle (``clubdesk``): the same as the ``clubdesk`` gui-script."""

from clubdesk.app import main

raise SystemExit(main())
