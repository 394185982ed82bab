"""Plain data the reports print and share: frozen dataclasses that the services fill (or a test).

The face of the package: every shape, by report, in ``header``, ``sheets``, ``night``, ``players``, ``site``,
``acts``, ``money``, ``season`` and ``private``. No database, no Qt, no service: reports import these
shapes, and services fill them, never the reverse.

Privacy (rule T14): the public classes have no phone or e-mail field at all, so a public report cannot print
one; only :class:`MemberHistory` and :class:`ContactList` (the organiser's private lists) carry contact data,
and their pages say "private". Money is an ``int`` in the currency's minor unit with its ISO code; points are
already-formatted text or integers, as each class says.
"""

from __future__ import annotations

from clubdesk.reports.data.acts import (
    ActAppeal,
    ActApproval,
    ActDecision,
    ActIncident,
    ActPenalty,
    ActPlayer,
    ActTeam,
    IncidentActData,
)
from clubdesk.reports.data.header import PageSize, ReportHeader
from clubdesk.reports.data.money import PlanLine, PrizeListData, PrizeRow, ReceiptData, ReceiptLine
from clubdesk.reports.data.night import (
    BracketData,
    BracketMatchData,
    CrossRow,
    CrossTable,
    PairingsData,
    PairingSide,
    PairingTable,
    StandingsData,
    StandingsRow,
)
from clubdesk.reports.data.players import (
    CardEvent,
    CardIncident,
    CardMatch,
    CrossCell,
    CrossLine,
    CrossTableView,
    PlayerCard,
)
from clubdesk.reports.data.private import (
    ContactList,
    ContactRow,
    HistoryRow,
    MemberHistory,
    PersonalRecord,
    PersonalSection,
)
from clubdesk.reports.data.season import SeasonData, SeasonRowData
from clubdesk.reports.data.sheets import (
    DominoSheetData,
    GapleSheetData,
    RecordedScore,
    ScoreSheetData,
    SubstitutionLine,
    TavlaSheetData,
)
from clubdesk.reports.data.site import SiteData, SiteEvent

__all__ = [
    "ActAppeal",
    "ActApproval",
    "ActDecision",
    "ActIncident",
    "ActPenalty",
    "ActPlayer",
    "ActTeam",
    "BracketData",
    "BracketMatchData",
    "CardEvent",
    "CardIncident",
    "CardMatch",
    "ContactList",
    "ContactRow",
    "CrossCell",
    "CrossLine",
    "CrossRow",
    "CrossTable",
    "CrossTableView",
    "DominoSheetData",
    "GapleSheetData",
    "HistoryRow",
    "IncidentActData",
    "MemberHistory",
    "PersonalRecord",
    "PersonalSection",
    "PageSize",
    "PairingSide",
    "PairingTable",
    "PairingsData",
    "PlanLine",
    "PlayerCard",
    "PrizeListData",
    "PrizeRow",
    "ReceiptData",
    "ReceiptLine",
    "RecordedScore",
    "ReportHeader",
    "ScoreSheetData",
    "SeasonData",
    "SeasonRowData",
    "SiteData",
    "SiteEvent",
    "StandingsData",
    "StandingsRow",
    "SubstitutionLine",
    "TavlaSheetData",
]
