"""Players across clubs (rule T2a: one player, one ID): a club's member, as its files name him (club and
member number), is matched to the federation's player by his federation licence (E15). A member without a
licence, or whose licence the hub knows under another name, or whose licence changed, is still counted (as
his own player until resolved) and waits in the queue; the federation secretary merges two players
(their results combined) or keeps them apart."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.services.kernel import ServiceError
from clubdesk.storage.hub import Hub, HubClub, HubIdentity, HubPlayer, HubQueueItem
from clubdesk.text import fold


def root_players(s: Session) -> dict[int, int]:
    """Every player's id -> the player he is after the secretary's merges."""
    merged = {int(a): b for a, b in s.execute(select(HubPlayer.id, HubPlayer.merged_into_id)).all()}
    out: dict[int, int] = {}
    for pid in merged:
        seen = pid
        while merged.get(seen) is not None:
            seen = merged[seen]  # type: ignore[assignment]
        out[pid] = seen
    return out


def _player_by_licence(s: Session, licence: str, name: str, city: str) -> HubPlayer:
    player = s.scalar(select(HubPlayer).where(HubPlayer.licence == licence))
    if player is None:
        player = HubPlayer(licence=licence, name=name, city=city)
        s.add(player)
        s.flush()
    return player


def _queue(s: Session, ident: HubIdentity, reason: str, detail: str, candidate: int | None) -> None:
    open_same = s.scalar(
        select(HubQueueItem).where(
            HubQueueItem.identity_id == ident.id,
            HubQueueItem.reason == reason,
            HubQueueItem.resolved.is_(False),
        )
    )
    if open_same is None:
        s.add(HubQueueItem(identity_id=ident.id, reason=reason, detail=detail, candidate_id=candidate))


def identity_for(s: Session, club: HubClub, person: Mapping[str, Any]) -> HubIdentity:
    """The hub's identity of a club's member named in a file (made the first time), matched by licence."""
    number = str(person["number"])
    name = str(person.get("name", ""))
    licence = str(person.get("licence") or "").strip().upper()
    city = str(person.get("city") or "")
    ident = s.scalar(select(HubIdentity).where(HubIdentity.club_id == club.id, HubIdentity.number == number))
    if ident is None:
        if licence:
            player = _player_by_licence(s, licence, name, city)
        else:
            player = HubPlayer(licence=None, name=name, city=city)
            s.add(player)
            s.flush()
        ident = HubIdentity(
            club_id=club.id, number=number, name=name, licence=licence, city=city, player_id=player.id
        )
        s.add(ident)
        s.flush()
        if not licence:
            same = s.scalar(
                select(HubPlayer.id)
                .where(HubPlayer.id != player.id, HubPlayer.merged_into_id.is_(None))
                .where(HubPlayer.name == name)
                .order_by(HubPlayer.id)
            )
            _queue(
                s,
                ident,
                "no-licence",
                _("{name} of {club} has no federation licence.").format(name=name, club=club.name),
                same,
            )
        elif fold(player.name) != fold(name):
            _queue(
                s,
                ident,
                "licence-name",
                _("Licence {licence} is {known} at the hub; {club} calls him {name}.").format(
                    licence=licence, known=player.name, club=club.name, name=name
                ),
                player.id,
            )
        return ident
    if licence and licence != ident.licence:
        other = _player_by_licence(s, licence, name, city)
        if root_players(s).get(other.id) != root_players(s).get(ident.player_id):
            _queue(
                s,
                ident,
                "licence-changed",
                _("{name} of {club} now has licence {licence} ({was} before).").format(
                    name=name, club=club.name, licence=licence, was=ident.licence or "-"
                ),
                other.id,
            )
    ident.name, ident.city = name, city
    if licence:
        ident.licence = licence
    return ident


@dataclass(frozen=True)
class QueueLine:
    id: int
    reason: str
    detail: str
    player: int  # the identity's player now
    candidate: int | None  # the player he may be (merge ``player`` into it)


def queue(hub: Hub) -> list[QueueLine]:
    """The identities the federation secretary has still to settle, oldest first."""
    with hub.session() as s:
        rows = s.execute(
            select(HubQueueItem, HubIdentity.player_id)
            .join(HubIdentity, HubIdentity.id == HubQueueItem.identity_id)
            .where(HubQueueItem.resolved.is_(False))
            .order_by(HubQueueItem.id)
        ).all()
        roots = root_players(s)
        return [
            QueueLine(
                q.id, q.reason, q.detail, roots.get(pid, pid), q.candidate_id and roots.get(q.candidate_id)
            )
            for q, pid in rows
        ]


@dataclass(frozen=True)
class Merged:
    kept: int
    gone: int
    identities: int
    resolved: int


def merge_players(hub: Hub, gone: int, kept: int) -> Merged:
    """Rule T2a: player ``gone`` is player ``kept``; every club identity of ``gone`` becomes ``kept``'s and
    their results are combined in the season. The queue's items about either are settled."""
    with hub.session() as s:
        roots = root_players(s)
        if gone not in roots or kept not in roots:
            missing = gone if gone not in roots else kept
            raise ServiceError("no-player", _("There is no player {id} at the hub.").format(id=missing))
        a, b = roots[gone], roots[kept]
        if a == b:
            raise ServiceError(
                "same-player", _("Players {a} and {b} are already one.").format(a=gone, b=kept)
            )
        pa, pb = s.get(HubPlayer, a), s.get(HubPlayer, b)
        assert pa is not None and pb is not None
        if pa.licence and pb.licence:
            raise ServiceError(
                "two-licences",
                _("Both players hold a licence ({a}, {b}): one person has one licence.").format(
                    a=pa.licence, b=pb.licence
                ),
            )
        licence = pa.licence or pb.licence
        pa.licence = None
        s.flush()
        pb.licence = licence
        pa.merged_into_id = pb.id
        moved = s.execute(update(HubIdentity).where(HubIdentity.player_id == pa.id).values(player_id=pb.id))
        idents = select(HubIdentity.id).where(HubIdentity.player_id == pb.id)
        done = s.execute(
            update(HubQueueItem)
            .where(HubQueueItem.resolved.is_(False), HubQueueItem.identity_id.in_(idents))
            .values(resolved=True, resolution=f"merged {a} into {b}")
        )
        return Merged(b, a, int(moved.rowcount or 0), int(done.rowcount or 0))


def keep_apart(hub: Hub, item: int) -> int:
    """The secretary settles a queue item without a merge: the identity is his own player."""
    with hub.session() as s:
        q = s.get(HubQueueItem, item)
        if q is None or q.resolved:
            raise ServiceError("no-item", _("There is no open queue item {id}.").format(id=item))
        q.resolved = True
        q.resolution = "kept apart"
        return q.id
