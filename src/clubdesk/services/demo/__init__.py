"""The demo club: members, events, a played night, prizes and a season, filled into a demo file only.

The package's face: what the window and the command line use."""

from clubdesk.services.demo.demo_club import (
    DEFAULT_MEMBERS,
    DEFAULT_SEED,
    DemoOptions,
    ensure_demo,
    fill_demo,
)

__all__ = ["DEFAULT_MEMBERS", "DEFAULT_SEED", "DemoOptions", "ensure_demo", "fill_demo"]
