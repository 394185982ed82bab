"""Gaple sheet entries: the typed hand entries, their validation and their plain form (RULES.md sections A
and B, CONTRACTS.md §1).

:func:`parse_entry` turns a sheet entry (a plain mapping) into a frozen hand entry (:class:`Out`,
:class:`Block`, :class:`Redeal`, :class:`SixDoubles`, :class:`Penalty`), checking it on its own; the match
context is checked by :class:`~clubdesk.games.gaple.GapleMatch`. :func:`entry_to_dict` gives the plain form.

Seats 0–3 in playing order (counter-clockwise, rule G5); side 0 = seats 0 and 2, side 1 = seats 1 and 3.
Messages number seats 1–4 and sides 1–2 (or use the seat names), as the paper sheet does; codes, indices
and entry fields stay 0-based (CONTRACTS.md §1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from clubdesk.games.errors import EntryError
from clubdesk.i18n import _

__all__ = [
    "MAX_HAND_PIPS",
    "MAX_TOTAL_PIPS",
    "SEATS",
    "Block",
    "Entry",
    "Out",
    "Penalty",
    "Redeal",
    "SixDoubles",
    "entry_to_dict",
    "parse_entry",
    "seat_label",
    "side_label",
    "side_of",
]

MAX_HAND_PIPS = 69  # 6-6, 6-5, 5-5, 6-4, 5-4, 6-3, 4-4: 12+11+10+10+9+9+8, the most 7 tiles can hold
MAX_TOTAL_PIPS = 168  # the whole double-six set
SEATS = 4


def side_of(seat: int) -> int:
    """Side 0 = seats 0 and 2, side 1 = seats 1 and 3."""
    return seat % 2


# --------------------------------------------------------------------------------------------- entries


@dataclass(frozen=True, slots=True)
class Out:
    """Seat ``seat`` went out (rules GN1, GS1–GS7, B6). ``pips``: what each seat still holds, face values."""

    seat: int
    pips: tuple[int, int, int, int]
    last_tile: str | None = None  # "0-0", "6-6" or None
    two_ends: bool = False
    dead_00: int | None = None  # seat holding a dead 0-0
    dead_66: int | None = None  # seat holding a dead 6-6


@dataclass(frozen=True, slots=True)
class Block:
    """Seat ``seat`` played the blocking tile; duel against seat (seat - 1) mod 4 (GN2, GN7, G17, B5).

    ``dead_00`` / ``dead_66``: the seat holding a caught 0-0 / 6-6, for rule B6's fine in a blocked hand."""

    seat: int
    pips: tuple[int, int, int, int]
    dead_00: int | None = None
    dead_66: int | None = None


@dataclass(frozen=True, slots=True)
class Redeal:
    """A hand dealt again: scores nothing, stays on the sheet (rules G11, G14, B9, B10)."""


@dataclass(frozen=True, slots=True)
class SixDoubles:
    """Seat ``seat`` was dealt six doubles: that side wins the current game (rule B9)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """``points`` taken from side ``side`` (rules G3, B7); 0 points = a warning."""

    side: int
    points: int


Entry = Out | Block | Redeal | SixDoubles | Penalty


def side_label(side: int, seat_names: Sequence[str] | None) -> str:
    """A side as people call it: the names of its two players, else "side 1" / "side 2"."""
    if seat_names is not None:
        return _("{a} and {b}").format(a=seat_names[side], b=seat_names[side + 2])
    return _("side {side}").format(side=side + 1)


def seat_label(seat: int, seat_names: Sequence[str] | None) -> str:
    """A seat as people call it: the player's name, else "seat 1" to "seat 4" (as on the sheet)."""
    if seat_names is not None:
        return seat_names[seat]
    return _("seat {seat}").format(seat=seat + 1)


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_seat(index: int, raw: Mapping[str, object], key: str = "seat") -> int:
    value = raw.get(key)
    if not _int(value) or not 0 <= value < SEATS:  # type: ignore[operator]
        msg = _("unknown seat {seat!r}: an entry numbers the seats 0 to 3 (seats 1 to 4 on the sheet)")
        raise EntryError(index, "unknown-seat", msg.format(seat=value))
    assert isinstance(value, int)
    return value


def _parse_pips(
    index: int, raw: Mapping[str, object], seat_names: Sequence[str] | None = None
) -> tuple[int, int, int, int]:
    value = raw.get("pips")
    if not isinstance(value, list | tuple) or len(value) != SEATS or not all(_int(p) for p in value):
        raise EntryError(index, "bad-pips", _("pips must be four whole numbers, one per seat"))
    pips = (int(value[0]), int(value[1]), int(value[2]), int(value[3]))
    for seat, p in enumerate(pips):
        if not 0 <= p <= MAX_HAND_PIPS:
            msg = _("{who} shows {pips} pips; a hand holds 0 to {max}")
            who = seat_label(seat, seat_names)
            raise EntryError(index, "pips-out-of-range", msg.format(who=who, pips=p, max=MAX_HAND_PIPS))
    if sum(pips) > MAX_TOTAL_PIPS:
        msg = _("the hands show {pips} pips together; the whole set has {max}")
        raise EntryError(index, "pips-out-of-range", msg.format(pips=sum(pips), max=MAX_TOTAL_PIPS))
    return pips


def _parse_dead(index: int, raw: Mapping[str, object]) -> tuple[int | None, int | None]:
    dead = raw.get("dead")
    if dead is None:
        return None, None
    if not isinstance(dead, Mapping) or any(k not in ("0-0", "6-6") for k in dead):
        raise EntryError(index, "bad-tile", _('"dead" names only the tiles 0-0 and 6-6'))
    holders: list[int | None] = []
    for tile in ("0-0", "6-6"):
        holder = dead.get(tile)
        if holder is None:
            holders.append(None)
        elif not _int(holder) or not 0 <= holder < SEATS:
            msg = _("unknown seat {seat!r} holding a dead {tile}: an entry numbers the seats 0 to 3")
            raise EntryError(index, "unknown-seat", msg.format(seat=holder, tile=tile))
        else:
            holders.append(int(holder))
    return holders[0], holders[1]


def parse_entry(index: int, raw: Mapping[str, object], seat_names: Sequence[str] | None = None) -> Entry:
    """Validate one sheet entry on its own (the match context is checked by :class:`GapleMatch`).

    ``seat_names`` (the four players in seat order), when given, name the seats in the messages.
    """
    if not isinstance(raw, Mapping):
        raise EntryError(index, "bad-entry", _("an entry must be a table of values"))
    kind = raw.get("type")
    if kind == "out":
        seat = _parse_seat(index, raw)
        pips = _parse_pips(index, raw, seat_names)
        last = raw.get("last_tile")
        if last not in (None, "0-0", "6-6"):
            raise EntryError(index, "bad-tile", _("the last tile is noted only when it is 0-0 or 6-6"))
        two_ends = raw.get("two_ends", False)
        if not isinstance(two_ends, bool):
            raise EntryError(index, "bad-flag", _('"two_ends" must be true or false'))
        dead_00, dead_66 = _parse_dead(index, raw)
        if pips[seat] != 0:
            msg = _("{who} went out but shows {pips} pips")
            who = seat_label(seat, seat_names)
            raise EntryError(index, "pips-with-player-out", msg.format(who=who, pips=pips[seat]))
        for tile, holder in (("0-0", dead_00), ("6-6", dead_66)):
            if holder == seat:
                msg = _("{who} went out, so cannot hold a dead {tile}")
                who = seat_label(seat, seat_names)
                raise EntryError(index, "dead-double-out-player", msg.format(who=who, tile=tile))
            if holder is not None and last == tile:
                msg = _("{tile} was the last tile played, so it cannot be dead in a hand")
                raise EntryError(index, "dead-double-played", msg.format(tile=tile))
        if dead_66 is not None and pips[dead_66] < 12:
            msg = _("{who} holds a dead 6-6 but shows only {pips} pips (6-6 alone is 12)")
            who = seat_label(dead_66, seat_names)
            raise EntryError(index, "dead-66-pips", msg.format(who=who, pips=pips[dead_66]))
        if two_ends and last is not None:
            # rule GS1/GS2: "two ends" is never a double
            raise EntryError(index, "two-ends-double", _("going out on two ends cannot be with a double"))
        return Out(seat, pips, None if last is None else str(last), two_ends, dead_00, dead_66)
    if kind == "block":
        seat = _parse_seat(index, raw)
        pips = _parse_pips(index, raw, seat_names)
        # rule B6: a "dead" table names who holds a caught double (fined in a blocked hand too)
        dead_00, dead_66 = _parse_dead(index, raw)
        if dead_66 is not None and pips[dead_66] < 12:
            msg = _("{who} holds a dead 6-6 but shows only {pips} pips (6-6 alone is 12)")
            who = seat_label(dead_66, seat_names)
            raise EntryError(index, "dead-66-pips", msg.format(who=who, pips=pips[dead_66]))
        return Block(seat, pips, dead_00, dead_66)
    if kind == "redeal":
        return Redeal()
    if kind == "six_doubles":
        return SixDoubles(_parse_seat(index, raw))
    if kind == "penalty":
        side = raw.get("side")
        if not _int(side) or side not in (0, 1):
            msg = _("unknown side {side!r}: an entry numbers the sides 0 and 1 (sides 1 and 2 on the sheet)")
            raise EntryError(index, "unknown-side", msg.format(side=side))
        points = raw.get("points")
        if not _int(points) or points < 0:  # type: ignore[operator]
            msg = _("penalty points must be a whole number of 0 or more, not {points!r}")
            raise EntryError(index, "bad-points", msg.format(points=points))
        assert isinstance(side, int) and isinstance(points, int)
        return Penalty(side, points)
    raise EntryError(index, "unknown-type", _("unknown entry type {type!r} for gaple").format(type=kind))


def entry_to_dict(entry: Entry) -> dict[str, object]:
    """The plain sheet entry (CONTRACTS.md §1) for a typed entry."""
    if isinstance(entry, Out):
        return {
            "type": "out",
            "seat": entry.seat,
            "pips": list(entry.pips),
            "last_tile": entry.last_tile,
            "two_ends": entry.two_ends,
            "dead": {"0-0": entry.dead_00, "6-6": entry.dead_66},
        }
    if isinstance(entry, Block):
        out: dict[str, object] = {"type": "block", "seat": entry.seat, "pips": list(entry.pips)}
        if entry.dead_00 is not None or entry.dead_66 is not None:
            out["dead"] = {"0-0": entry.dead_00, "6-6": entry.dead_66}
        return out
    if isinstance(entry, Redeal):
        return {"type": "redeal"}
    if isinstance(entry, SixDoubles):
        return {"type": "six_doubles", "seat": entry.seat}
    return {"type": "penalty", "side": entry.side, "points": entry.points}
