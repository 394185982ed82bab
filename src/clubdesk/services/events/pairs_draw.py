"""Rule B1: a league's partner pairs drawn by lot, once, when the competition is formed.

The players of the event's registered pair entries are drawn into new pairs by
:func:`clubdesk.pairing.lots.draw_pairs`, reproducibly from the seed, avoiding last season's partners
(the latest earlier pair event of the same ruleset) where a draw can. Each entry keeps its row (its code,
fee and payments) and receives one drawn pair. Refused once the event has a round, or when already drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.models.audit import AuditEntry
from clubdesk.models.base import utcnow
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.round import Round
from clubdesk.pairing.lots import draw_pairs, explain_pairs
from clubdesk.services.kernel import Actor, ServiceError, audit, require
from clubdesk.storage import Database

PLAYER_ROLES = ("player", "partner")


@dataclass(frozen=True)
class DrawnPair:
    entrant: int
    members: tuple[str, str]  # member numbers
    name: str


@dataclass(frozen=True)
class PairsDraw:
    event: int
    seed: int
    pairs: tuple[DrawnPair, ...]
    avoided: tuple[tuple[str, str], ...]  # last season's partnerships the draw avoided where it could
    explanations: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "seed": self.seed,
            "pairs": [{"entrant": p.entrant, "members": list(p.members), "name": p.name} for p in self.pairs],
            "avoided": [list(a) for a in self.avoided],
            "explanations": list(self.explanations),
        }


def _entries(s: Session, ev: Event) -> list[tuple[Entrant, list[tuple[EntrantMember, Member]]]]:
    out = []
    rows = s.scalars(
        select(Entrant).where(Entrant.event_id == ev.id, Entrant.status == "registered").order_by(Entrant.id)
    )
    for en in rows:
        links = s.scalars(
            select(EntrantMember)
            .where(EntrantMember.entrant_id == en.id, EntrantMember.active.is_(True))
            .order_by(EntrantMember.id)
        )
        players = []
        for link in links:
            m = s.get(Member, link.member_id)
            if m is not None and link.role in PLAYER_ROLES:
                players.append((link, m))
        out.append((en, players))
    return out


def last_season_partners(s: Session, ev: Event) -> list[tuple[str, str]]:
    """The pairs (member numbers) of the latest earlier pair event with the same ruleset."""
    prev = s.scalars(
        select(Event)
        .where(Event.id != ev.id, Event.ruleset == ev.ruleset, Event.entry_type == "pair", Event.id < ev.id)
        .order_by(Event.id.desc())
    ).first()
    if prev is None:
        return []
    pairs = []
    for _en, players in _entries(s, prev):
        if len(players) == 2:
            pairs.append((players[0][1].number, players[1][1].number))
    return pairs


def draw_league_pairs(
    db: Database, actor: Actor, event_id: int, seed: int, *, now: datetime | None = None
) -> PairsDraw:
    """Rule B1: draw the event's pairs by lot (see the module docstring). Audited."""
    require(actor, "rounds.edit", db)  # permission table
    with db.session() as s:
        ev = s.get(Event, event_id)
        if ev is None:
            raise ServiceError("no-such-event", _("There is no event {id}.").format(id=event_id))
        if ev.entry_type != "pair":
            raise ServiceError("not-pairs", _("{event} is not played in pairs.").format(event=ev.name))
        if s.scalar(select(Round.id).where(Round.event_id == ev.id).limit(1)) is not None:
            raise ServiceError(
                "has-rounds",
                _("{event} already has a round: its pairs can no longer be drawn (rule B1).").format(
                    event=ev.name
                ),
            )
        done = s.scalar(
            select(AuditEntry.id)
            .where(AuditEntry.action == "pairs-draw", AuditEntry.event_id == ev.id)
            .limit(1)
        )
        if done is not None:
            raise ServiceError(
                "already-drawn",
                _("The pairs of {event} were drawn already (rule B1: once).").format(event=ev.name),
            )
        entries = _entries(s, ev)
        if len(entries) < 2:
            raise ServiceError("too-few", _("At least two pair entries are needed for a draw."))
        by_number: dict[str, Member] = {}
        for en, players in entries:
            if len(players) != 2:
                raise ServiceError(
                    "not-a-pair",
                    _("Entry {id} ({name}) does not have two players.").format(id=en.id, name=en.name),
                )
            for _link, m in players:
                by_number[m.number] = m
        numbers = [m.number for _en, players in entries for _l, m in players]
        avoid = last_season_partners(s, ev)
        drawn = draw_pairs(numbers, seed=seed, avoid=avoid)
        before = {en.id: [m.number for _l, m in players] for en, players in entries}
        when = now or utcnow()
        pairs: list[DrawnPair] = []
        for (en, players), (a, b) in zip(entries, drawn, strict=True):
            assert b is not None  # an even number of players: everyone has a partner
            for link, _m in players:
                link.active = False
                link.left_at = when
            s.flush()
            for number, role in ((a, "player"), (b, "partner")):
                s.add(
                    EntrantMember(entrant_id=en.id, member_id=by_number[number].id, role=role, joined_at=when)
                )
            en.name = f"{by_number[a].name} / {by_number[b].name}"
            pairs.append(DrawnPair(en.id, (a, b), en.name))
        names = {n: f"{m.name} ({n})" for n, m in by_number.items()}
        lines = explain_pairs(
            [(names[a], names[b] if b else None) for a, b in drawn],
            seed=seed,
            avoid=[(names[x], names[y]) for x, y in avoid if x in names and y in names],
        )
        result = PairsDraw(ev.id, seed, tuple(pairs), tuple(avoid), tuple(lines))
        audit(
            s,
            actor,
            "pairs-draw",
            "event",
            ev.id,
            before={"pairs": before},
            after=result.as_json(),
            event_id=ev.id,
        )
        return result
