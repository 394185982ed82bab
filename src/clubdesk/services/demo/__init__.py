"""The demo club: members, events, a played night, prizes and a season, filled into a demo file only.

The package's face: what the window, the command line and the guide's pictures use."""

from clubdesk.services.demo.demo_club import (
    DEFAULT_MEMBERS,
    DEFAULT_SEED,
    DEMO_CLUB_NAME,
    NIGHT_DEMO_PREFIX,
    SEASON_DEMO_PREFIX,
    DemoOptions,
    ensure_demo,
    fill_demo,
)

__all__ = [
    "DEFAULT_MEMBERS",
    "DEFAULT_SEED",
    "DEMO_CLUB_NAME",
    "NIGHT_DEMO_PREFIX",
    "SEASON_DEMO_PREFIX",
    "DemoOptions",
    "ensure_demo",
    "fill_demo",
]
