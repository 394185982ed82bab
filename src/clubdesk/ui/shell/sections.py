"""The sections of the main window.

A factory takes the :class:`DeskState` and returns the section's widget. Sections without a screen yet
show an empty state saying what will be there.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from clubdesk.i18n import N_

if TYPE_CHECKING:  # the sidebar paints before the database layer is imported
    from clubdesk.ui.shell.state import DeskState


@dataclass(frozen=True)
class Section:
    key: str
    title: str  # marked with N_, translated when shown
    empty_text: str
    factory: str | None = None  # "module:callable" returning a QWidget for the DeskState


SECTIONS: tuple[Section, ...] = (
    Section(
        "members",
        N_("Members"),
        N_("The club's register: members and clubs, import and export."),
        "clubdesk.ui.members.register_view:MembersSection",
    ),
    Section(
        "events",
        N_("Events"),
        N_("Competitions: create events, set fees, capacity and formats."),
        "clubdesk.ui.events.events_view:EventsSection",
    ),
    Section(
        "desk",
        N_("Desk"),
        N_("The registration desk: entries, payments, waiting list and check-in."),
        "clubdesk.ui.desk.desk_view:DeskSection",
    ),
    Section(
        "rounds",
        N_("Rounds"),
        N_("The pairing wizard and table-by-table score entry."),
        "clubdesk.ui.night.rounds_section:RoundsSection",
    ),
    Section(
        "standings",
        N_("Standings"),
        N_("Live standings with tie-breaks, and brackets."),
        "clubdesk.ui.ranking.standings_view:StandingsSection",
    ),
    Section(
        "season",
        N_("Season"),
        N_("The season ranking, the Super Final invitations and starting lives."),
        "clubdesk.ui.ranking.season_view:SeasonSection",
    ),
    Section(
        "ratings",
        N_("Ratings"),
        N_("Tavla ratings with their history, and each player's card."),
        "clubdesk.ui.ranking.players_view:RatingsSection",
    ),
    Section(
        "discipline",
        N_("Discipline"),
        N_("Incidents for the match act, penalties, appeals and the audit log."),
        "clubdesk.ui.discipline.section:DisciplineSection",
    ),
    Section(
        "reports",
        N_("Reports"),
        N_("Score sheets, pairings, standings, brackets and receipts to print."),
        "clubdesk.ui.publishing.reports_view:ReportsSection",
    ),
    Section(
        "settings",
        N_("Settings"),
        N_("Club name and logo, language."),
        "clubdesk.ui.club.settings_view:SettingsSection",
    ),
)


def load_factory(section: Section) -> Callable[[DeskState], QWidget] | None:
    """The section's screen, or None while that screen has not been built yet."""
    if section.factory is None:
        return None
    module_name, attr = section.factory.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            return None  # that screen has not been built yet
        raise
    factory: Callable[[DeskState], QWidget] = getattr(module, attr)
    return factory
