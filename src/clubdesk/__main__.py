"""``python -m clubdesk`` opens the window."""

from clubdesk.app import main

raise SystemExit(main())
