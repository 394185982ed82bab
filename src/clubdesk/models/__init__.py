"""SQLAlchemy models. Importing this package registers every table on ``Base.metadata``."""

from clubdesk.models.audit import AuditEntry
from clubdesk.models.base import Base
from clubdesk.models.club import Club, Setting

__all__ = ["AuditEntry", "Base", "Club", "Setting"]
from clubdesk.models.member import Member  # noqa: E402

__all__ += ["Member"]
from clubdesk.models.event import Entrant, EntrantMember, Event, OutboxMessage  # noqa: E402
from clubdesk.models.money import Payment  # noqa: E402

__all__ += ["Entrant", "EntrantMember", "Event", "OutboxMessage", "Payment"]
from clubdesk.models.result import (  # noqa: E402
    FinalPlace,
    Match,
    PrizeAward,
    RatingEntry,
    ResultEntry,
    StandingsStamp,
    Substitution,
)
from clubdesk.models.round import EventNight, Round  # noqa: E402

__all__ += ["EventNight", "FinalPlace", "Match", "PrizeAward", "RatingEntry", "ResultEntry", "Round"]
__all__ += ["StandingsStamp", "Substitution"]
from clubdesk.models.discipline import Appeal, ClubIncidentKind, Incident, Penalty  # noqa: E402

__all__ += ["Appeal", "ClubIncidentKind", "Incident", "Penalty"]
from clubdesk.models.staff import StaffAccount  # noqa: E402

__all__ += ["StaffAccount"]
from clubdesk.models.table_entry import RefereeCall, TablePost, TableState, TableToken  # noqa: E402

__all__ += ["RefereeCall", "TablePost", "TableState", "TableToken"]
