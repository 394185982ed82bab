"""What the window needs of the background re-rating at start-up, without the rating engine:
whether the window re-rates long corrections in the background (:func:`rerate_in_background`) and whether
a re-rating waits (:func:`pending`). :mod:`clubdesk.services.night.ranking.ratings` does the re-rating
itself; the window imports that module (and the standings engines it needs) only when a
re-rating is to be done, not before its first section shows its data."""

from __future__ import annotations

import weakref

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from clubdesk.models.club import Setting
from clubdesk.storage import Database

# What is still to do is kept in the settings row ``ratings.pending`` (see services.night.ranking.ratings)
PENDING_KEY = "ratings.pending"

_BACKGROUND: weakref.WeakSet[Engine] = weakref.WeakSet()


def rerate_in_background(db: Database, on: bool = True) -> None:
    """The window re-rates long corrections of ``db`` in the background (it runs
    :func:`clubdesk.services.night.ranking.ratings.catch_up`)."""
    if on:
        _BACKGROUND.add(db.engine)
    else:
        _BACKGROUND.discard(db.engine)


def in_background(s: Session) -> bool:
    bind = s.get_bind()
    return isinstance(bind, Engine) and bind in _BACKGROUND


def pending(db: Database) -> bool:
    """True while a re-rating waits for (or runs in) the background."""
    with db.read_session() as s:
        return s.get(Setting, PENDING_KEY) is not None
