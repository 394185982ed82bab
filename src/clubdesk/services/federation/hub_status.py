"""The hub's status: its clubs, how many events each sent and when the last arrived, the players and the
secretary's queue (the status page and ``federation status``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from clubdesk.storage.hub import Hub, HubClub, HubEvent, HubPlayer, HubQueueItem, HubVersion


@dataclass(frozen=True)
class ClubStatus:
    name: str
    events: int
    last: str | None  # when its last file arrived (UTC, ISO), None: never


@dataclass(frozen=True)
class HubStatus:
    clubs: tuple[ClubStatus, ...]
    events: int
    players: int
    queue: int


def hub_status(hub: Hub) -> HubStatus:
    with hub.session() as s:
        counts = dict(
            s.execute(select(HubEvent.club_id, func.count(HubEvent.id)).group_by(HubEvent.club_id)).all()
        )
        last = dict(
            s.execute(
                select(HubEvent.club_id, func.max(HubVersion.received_at))
                .join(HubVersion, HubVersion.event_id == HubEvent.id)
                .group_by(HubEvent.club_id)
            ).all()
        )
        clubs = tuple(
            ClubStatus(
                c.name,
                int(counts.get(c.id, 0)),
                last[c.id].isoformat(timespec="seconds") if c.id in last else None,
            )
            for c in s.scalars(select(HubClub).order_by(HubClub.name))
        )
        return HubStatus(
            clubs,
            int(s.scalar(select(func.count(HubEvent.id))) or 0),
            int(s.scalar(select(func.count(HubPlayer.id)).where(HubPlayer.merged_into_id.is_(None))) or 0),
            int(s.scalar(select(func.count(HubQueueItem.id)).where(HubQueueItem.resolved.is_(False))) or 0),
        )
