"""``clubdesk-cli``: headless commands on the same services the window uses (CONTRACTS.md §4)."""

from clubdesk.cli.core import main

__all__ = ["main"]
