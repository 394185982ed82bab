"""The demo club: members, events, a played night, prizes and a season, filled into a demo file only.

The package's face: what the window, the command line and the guide's pictures use."""

from clubdesk.services.demo.demo_club import DEMO_CLUB_NAME, DEMO_MARKER, ensure_demo, fill_demo, is_demo_file
from clubdesk.services.demo.nights import NIGHT_DEMO_PREFIX
from clubdesk.services.demo.options import DEFAULT_MEMBERS, DEFAULT_SEED, DemoOptions
from clubdesk.services.demo.season import SEASON_DEMO_PREFIX

__all__ = [
    "DEFAULT_MEMBERS",
    "DEFAULT_SEED",
    "DEMO_CLUB_NAME",
    "DEMO_MARKER",
    "NIGHT_DEMO_PREFIX",
    "SEASON_DEMO_PREFIX",
    "DemoOptions",
    "ensure_demo",
    "fill_demo",
    "is_demo_file",
]
