"""What the window shares between sections: the open database and who is acting.

Only plain values live here (no ORM objects); sections call services with ``state.db`` and ``state.actor``.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from clubdesk.services import club
from clubdesk.services.kernel import DEFAULT_ACTOR, Actor, Changes, Role
from clubdesk.storage import Database


class DeskState(QObject):
    actorChanged = Signal(object)
    # a section name whose data changed ("members", "events", ...; "rounds": another desk's change, from
    # the live refresh); a night's change made at this desk is ``changed`` instead
    dataChanged = Signal(str)
    changed = Signal(object, object)  # (Changes, the screen that made the change): see announce
    databaseChanged = Signal(object)  # the Database now open (file <-> club server, no restart)
    eventChanged = Signal(object)  # the id of the event in use, chosen in any selector (or None: no event)

    def __init__(self, db: Database, actor: Actor = DEFAULT_ACTOR) -> None:
        super().__init__()
        self.db = db
        self.actor = actor
        self.event_in_use: int | None = None

    def use_event(self, event_id: int | None) -> None:
        """The event in use for the whole window: chosen once (in any selector, or by Open the desk), shown
        in the status bar and followed by every section that works on an event (``eventChanged``)."""
        if event_id is None or event_id == self.event_in_use:
            return
        self.event_in_use = event_id
        self.eventChanged.emit(event_id)

    def announce(self, changes: Changes, origin: object | None = None) -> None:
        """A use case's typed result to every screen (Anki's ``operation_did_execute(changes, handler)``):
        a screen refreshes what ``changes`` names, and ``origin``, the screen that made the change, skips
        what it shows already."""
        self.changed.emit(changes, origin)

    def recent_actors(self) -> list[Actor]:
        raw = club.get(self.db, club.RECENT_ACTORS, []) or []
        out: list[Actor] = []
        for item in raw:
            try:
                out.append(Actor(str(item["name"]), Role(item["role"])))
            except (KeyError, TypeError, ValueError):
                continue
        return out

    def switch_database(self, db: Database) -> Database:
        """Use ``db`` from now on (the window rebuilds its screens on it); returns the one it replaces,
        for the caller to close."""
        old = self.db
        self.db = db
        self.event_in_use = None  # an event of the other club file is not this one's
        self.databaseChanged.emit(db)
        return old

    def set_actor(self, actor: Actor) -> None:
        recent = [a for a in self.recent_actors() if a != actor]
        recent.insert(0, actor)
        club.put(
            self.db,
            actor,
            club.RECENT_ACTORS,
            [{"name": a.name, "role": str(a.role)} for a in recent[:8]],
            audited=False,
        )
        self.actor = actor
        self.actorChanged.emit(actor)
