"""The hall pages (issue 27 item 7): pairings by table and by name, live standings, the countdown, the
bracket; read-only for anyone on the hall's network. (Filled in by the hall-pages part of the issue.)"""

from __future__ import annotations

from starlette.routing import BaseRoute


def routes() -> list[BaseRoute]:
    return []
