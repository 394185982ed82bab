"""None's references, kept for the whole night.

PySide6 6.12 on Python 3.11 takes one reference from ``None`` on every call of a method returning void
(``setText``, ``emit``, ``setCurrentIndex``, ``QFont.setBold`` ...) and on every ``None`` a model's
``data()`` hands back to Qt. A hand entered at the Rounds screen costs a few hundred; after about a
hundred hands None's count reaches zero and the interpreter aborts ("Fatal Python error: none_dealloc").

None lives as long as the interpreter, so a count too high is harmless and one too low is fatal: the
window's keeper lifts None's count far above any real use (:data:`FLOOR`) and, every
:data:`INTERVAL_MS`, gives back what was taken since it last looked. ``True`` and ``False`` lose references
the same way (a slot or a model answering a bool: "Fatal Python error: bool_dealloc" at exit after a long
run) and are kept alike (:data:`KEPT`). From Python 3.12 on None is immortal
and nothing is done. The models do their part too: they hand Qt colours and fonts built once
(:func:`kept_color`, :func:`kept_font`), so that answering for a cell calls no setter.
"""

from __future__ import annotations

import ctypes
import sys
from functools import cache

from PySide6.QtCore import QCoreApplication, QObject, QTimer
from PySide6.QtGui import QColor, QFont

FLOOR = 1 << 40  # references: at a thousand lost per hand, a billion hands
INTERVAL_MS = 1000
MORTAL_NONE = sys.version_info < (3, 12)
KEPT: tuple[object, ...] = (None, True, False)  # the singletons the binding takes references from


class NoneKeeper(QObject):
    """Gives None back, now and every :data:`INTERVAL_MS` while the application runs, the references taken
    from it since the last look, so that its count never falls; the first look lifts it to :data:`FLOOR`,
    room for whatever is taken between two looks."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.levels = {id(obj): FLOOR for obj in KEPT}  # each one's count is kept at this at least
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.give_back)
        self.give_back()
        self.timer.start()

    @property
    def level(self) -> int:
        """None's count at the last look."""
        return self.levels[id(None)]

    def give_back(self) -> int:
        """Each kept singleton's count back up to where it was at the last look (a reference too many is
        harmless); None's count now."""
        for obj in KEPT:
            now = sys.getrefcount(obj) - 1  # not counting ``obj`` itself: as a caller would count it
            level = self.levels[id(obj)]
            if MORTAL_NONE and now < level:
                ctypes.c_ssize_t.from_address(id(obj)).value += level - now
                now = level
            self.levels[id(obj)] = now
        return self.levels[id(None)]


_keepers: list[NoneKeeper] = []


def keep_none() -> NoneKeeper | None:
    """The application's keeper, started once (None where None is immortal or no application runs)."""
    app = QCoreApplication.instance()
    if not MORTAL_NONE or app is None:
        return None
    if not _keepers or _keepers[0].parent() is not app:
        _keepers[:] = [NoneKeeper(app)]
    return _keepers[0]


@cache
def kept_color(name: str) -> QColor:
    """The colour ``name`` (``#rrggbb``), built once: a model hands Qt this one on every call (never
    change it)."""
    return QColor(name)


@cache
def kept_font(bold: bool = True, point_size: int = 0) -> QFont:
    """A font built once (``point_size`` 0: the application's size), for a model's font role."""
    font = QFont()
    font.setBold(bold)
    if point_size > 0:
        font.setPointSize(point_size)
    return font
