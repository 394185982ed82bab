"""SQLAlchemy models. Importing this package registers every table on ``Base.metadata``."""

from clubdesk.models.audit import AuditEntry
from clubdesk.models.base import Base
from clubdesk.models.club import Club, Setting

__all__ = ["AuditEntry", "Base", "Club", "Setting"]
from clubdesk.models.member import Member  # noqa: E402

__all__ += ["Member"]
