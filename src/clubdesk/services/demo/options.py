"""What a demo run is asked for (:class:`DemoOptions`) and what it returns (:class:`DemoResult`), and the
shape of a demo hook: every module of the demo package reads these.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from clubdesk.services.kernel import Actor, Role
from clubdesk.storage import Database

DEMO_ACTOR = Actor("Demo", Role.SECRETARY)
DEFAULT_MEMBERS = 40
DEFAULT_SEED = 2024


@dataclass(frozen=True)
class DemoOptions:
    members: int = DEFAULT_MEMBERS
    seed: int = DEFAULT_SEED
    game: str | None = None  # a ruleset name for the demo events (used by later issues' hooks)


@dataclass(frozen=True)
class DemoResult:
    members: int  # members in the demo register
    events: list[int] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {"members": self.members, "events": list(self.events)}


DemoHook = Callable[[Database, Actor, DemoOptions, list[str]], list[int]]
