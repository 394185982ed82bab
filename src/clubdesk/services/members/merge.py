"""Merging two records of the same person (rule T2a): every row of every table that points at
``members.id`` moves to the kept member; the tables are found by inspecting ``Base.metadata``, so tables
added by later migrations are covered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.models.base import Base
from clubdesk.models.member import Member
from clubdesk.services.kernel import Actor, ServiceError, audit, require
from clubdesk.services.members.edit import apply, snapshot
from clubdesk.services.members.records import MemberData, MemberInfo, infos_of
from clubdesk.services.members.search import by_number
from clubdesk.storage import Database


@dataclass(frozen=True)
class MergePreview:
    """The two records side by side and how much history each one has, table by table."""

    keep: MemberInfo
    drop: MemberInfo
    history: tuple[tuple[str, int, int], ...]  # (table.column, rows of keep, rows of drop)
    result: MemberData  # the kept record after the merge


@dataclass(frozen=True)
class MergeResult:
    keep: str
    drop: str
    moved: dict[str, int] = field(default_factory=dict)  # table.column -> rows moved


# --------------------------------------------------------------------------- merge (rule T2a)


def member_references(existing: set[str] | None = None) -> list[tuple[str, str]]:
    """(table, column) of every foreign key in ``Base.metadata`` pointing at ``members.id``.

    Imports every model module first, so every table that points at a member is found. ``existing``: only
    these tables (the ones the open database has)."""

    refs: list[tuple[str, str]] = []
    for table in Base.metadata.sorted_tables:
        if existing is not None and table.name not in existing:
            continue  # a model whose migration this file has not got
        for fk in table.foreign_keys:
            if fk.column.table.name == "members" and fk.column.name == "id":
                refs.append((table.name, fk.parent.name))
    return sorted(refs)


def _tables(s: Session) -> set[str]:
    return set(inspect(s.connection()).get_table_names())


def _history_counts(s: Session, member_id: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for table_name, column in member_references(_tables(s)):
        table = Base.metadata.tables[table_name]
        n = s.scalar(select(func.count()).select_from(table).where(table.c[column] == member_id))
        counts[f"{table_name}.{column}"] = int(n or 0)
    return counts


def _merged_data(keep: MemberInfo, drop: MemberInfo) -> MemberData:
    """The kept record wins; its empty fields are filled from the dropped one. The rating is the one of the
    record with more rated matches, and the experience of both adds up (their results are combined, T2a)."""
    rating = keep.rating if keep.rating_experience >= drop.rating_experience else drop.rating
    notes = (
        keep.notes
        if not drop.notes or drop.notes in keep.notes
        else "\n".join(x for x in (keep.notes, drop.notes) if x)
    )
    return MemberData(
        name=keep.name,
        number=keep.number,
        club=keep.club or drop.club,
        city=keep.city or drop.city,
        gender=keep.gender or drop.gender,
        birth_year=keep.birth_year if keep.birth_year is not None else drop.birth_year,
        rating=rating,
        rating_experience=keep.rating_experience + drop.rating_experience,
        phone=keep.phone or drop.phone,
        email=keep.email or drop.email,
        notes=notes,
        active=True,
        licence=keep.licence or drop.licence,
    )


def _merge_pair(s: Session, keep_number: str, drop_number: str) -> tuple[Member, Member]:
    if keep_number.strip() == drop_number.strip():
        raise ServiceError("merge-same", _("A member cannot be merged with itself."))
    keep = by_number(s, keep_number, follow_merged=False)
    drop = by_number(s, drop_number, follow_merged=False)
    for m in (keep, drop):
        if m.merged_into_id is not None:
            raise ServiceError(
                "member-merged",
                _("{number} ({name}) was already merged into another member.").format(
                    number=m.number, name=m.name
                ),
            )
    return keep, drop


def merge_preview(db: Database, keep_number: str, drop_number: str) -> MergePreview:
    with db.session() as s:
        keep, drop = _merge_pair(s, keep_number, drop_number)
        k, d = infos_of(s, [keep, drop])
        hk, hd = _history_counts(s, keep.id), _history_counts(s, drop.id)
        history = tuple((key, hk[key], hd[key]) for key in hk)
        return MergePreview(k, d, history, _merged_data(k, d))


def merge_members(db: Database, actor: Actor, keep_number: str, drop_number: str) -> MergeResult:
    """Merge ``drop`` into ``keep`` (rule T2a): every row pointing at the dropped member now points at the
    kept one; the dropped record stays, inactive, marked as merged into the kept one.
    One transaction, audited."""
    require(actor, "members.merge", db)  # permission table
    try:
        with db.session() as s:
            keep, drop = _merge_pair(s, keep_number, drop_number)
            k, d = infos_of(s, [keep, drop])
            moved: dict[str, int] = {}
            for table_name, column in member_references(_tables(s)):
                table = Base.metadata.tables[table_name]
                col = table.c[column]
                result = s.execute(update(table).where(col == drop.id).values({column: keep.id}))
                rows = int(getattr(result, "rowcount", 0) or 0)
                if rows:
                    moved[f"{table_name}.{column}"] = rows
            merged = _merged_data(k, d)
            before_keep = snapshot(keep, k.club)
            apply(s, actor, keep, merged)
            keep.rating = merged.rating if merged.rating is not None else keep.rating
            drop.active = False
            drop.merged_into_id = keep.id
            s.flush()
            audit(
                s,
                actor,
                "member.merge",
                "member",
                keep.number,
                before={"keep": before_keep, "drop": snapshot(drop, d.club)},
                after={
                    "keep": snapshot(keep, infos_of(s, [keep])[0].club),
                    "dropped": drop.number,
                    "moved": moved,
                },
                reason=_("{drop} merged into {keep}").format(drop=drop.number, keep=keep.number),
            )
            return MergeResult(keep.number, drop.number, moved)
    except IntegrityError as exc:
        raise ServiceError(
            "merge-conflict",
            _(
                "The two members cannot be merged: both appear in the same place "
                "(for instance the same event). Nothing was changed."
            ),
        ) from exc
