"""The projector's pages: the hall data cut into screens of rows that fit.

A long list is never scrolled: it is cut into pages of as many rows as the screen holds, and the pages
cycle. No Qt here: plain frozen dataclasses from :class:`clubdesk.services.publishing.projector.HallData`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from clubdesk.i18n import N_, _
from clubdesk.services.publishing import HallData

# what the hall sees, in the order the cycle shows it
KINDS: tuple[str, ...] = ("tables", "names", "standings", "bracket", "countdown", "announcement")
KIND_LABELS: dict[str, str] = {
    "tables": N_("Pairings by table"),
    "names": N_("Pairings by name"),
    "standings": N_("Standings"),
    "bracket": N_("Bracket"),
    "countdown": N_("Countdown to the table call"),
    "announcement": N_("Announcement"),
}


@dataclass(frozen=True)
class Column:
    title: str
    weight: float  # share of the width
    align: str = "l"  # "l", "c" or "r"
    name: bool = False  # the column holds names (the 8 m rule's large type)


@dataclass(frozen=True)
class Page:
    kind: str
    title: str
    columns: tuple[Column, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    lines: tuple[str, ...] = ()  # large centred lines: an empty state, the countdown, the announcement
    number: int = 1
    count: int = 1
    empty: bool = False  # what to do first, instead of data


def _chunks(rows: list[tuple[str, ...]], per_page: int) -> list[list[tuple[str, ...]]]:
    per_page = max(1, per_page)
    return [rows[i : i + per_page] for i in range(0, len(rows), per_page)] or [[]]


def _paged(
    kind: str, title: str, columns: tuple[Column, ...], rows: list[tuple[str, ...]], per: int
) -> list[Page]:
    chunks = _chunks(rows, per)
    return [
        Page(kind, title, columns, tuple(chunk), number=k + 1, count=len(chunks))
        for k, chunk in enumerate(chunks)
    ]


def _empty(kind: str, title: str, text: str) -> list[Page]:
    return [Page(kind, title, lines=(text,), empty=True)]


def _round_title(data: HallData, with_round: str, without: str) -> str:
    return _(with_round).format(n=data.round) if data.round else _(without)


def tables_pages(data: HallData, per: int) -> list[Page]:
    title = _round_title(data, N_("Round {n} · tables"), N_("Pairings"))
    if data.round is None or not data.tables:
        return _empty(
            "tables", _("Pairings"), _("The pairings appear here when the desk publishes the round.")
        )
    columns = (
        Column(_("Table"), 0.12, "c"),
        Column(_("Side 1"), 0.38, name=True),
        Column(_("Result"), 0.12, "c"),
        Column(_("Side 2"), 0.38, name=True),
    )
    rows = [(str(t.table), t.side_a, t.result or "–", t.side_b or _("BYE")) for t in data.tables]
    return _paged("tables", title, columns, rows, per)


def names_pages(data: HallData, per: int) -> list[Page]:
    if data.round is None or not data.by_name:
        return _empty(
            "names", _("Where do I play?"), _("The pairings appear here when the desk publishes the round.")
        )
    title = _round_title(data, N_("Round {n} · where do I play?"), N_("Where do I play?"))
    columns = (
        Column(_("Name"), 0.46, name=True),
        Column(_("Table"), 0.14, "c"),
        Column(_("Opponent"), 0.40, name=True),
    )
    rows = [(e.name, str(e.table), e.opponent or _("BYE")) for e in data.by_name]
    return _paged("names", title, columns, rows, per)


def standings_pages(data: HallData, per: int) -> list[Page]:
    if not data.has_results or not data.standings:
        return _empty(
            "standings", _("Standings"), _("The standings appear here with the first confirmed result.")
        )
    codes = data.standings_codes
    columns = (
        Column("#", 0.09, "r"),
        Column(_("Name"), 0.91 - 0.13 - 0.13 * len(codes), name=True),
        Column(_("Pts"), 0.13, "r"),
        *(Column(c, 0.13, "r") for c in codes),
    )
    rows = [
        (s.place, s.name + (f" ({s.note})" if s.note else ""), s.points, *s.tiebreaks) for s in data.standings
    ]
    return _paged("standings", data.standings_title, columns, rows, per)


def bracket_pages(data: HallData, per: int) -> list[Page]:
    """The bracket drawn whole (an overview), then its rounds as rows in the large type of the other pages:
    a big bracket fitted to the screen has names too small for the 8 m rule, its rounds never do."""
    if not data.elimination:
        return _empty(
            "bracket", _("Bracket"), _("This event has no bracket: it is not an elimination event.")
        )
    if data.bracket is None:
        return _empty("bracket", _("Bracket"), _("The bracket appears here once the event is drawn."))
    pages = [Page("bracket", _("Bracket"))]
    columns = (
        Column(_("Side 1"), 0.40, name=True),
        Column(_("Result"), 0.20, "c"),
        Column(_("Side 2"), 0.40, name=True),
    )
    for head, rows in data.bracket_rounds:
        pages += _paged("bracket", head, columns, list(rows), per)
    return pages


def _left(delta_seconds: float) -> str:
    s = max(0, int(delta_seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def countdown_page(data: HallData, now: datetime) -> Page:
    """The table call and the forfeit deadline with the time left (rules T3b and G15)."""
    title = _round_title(data, N_("Round {n} · table call"), N_("Table call"))
    lines: list[str] = []
    if data.round is not None and data.call_at is not None:
        call = data.call_at.strftime("%H:%M")
        lines.append(_("Tables are called at {time}.").format(time=call))
        left = (data.call_at - now).total_seconds()
        lines.append(_("in {left}").format(left=_left(left)) if left > 0 else _("Go to your table now."))
    if data.round is not None and data.forfeit_due is not None:
        due = data.forfeit_due.strftime("%H:%M")
        if data.forfeit_rule == "G15":  # rule G15: present N minutes before the match starts
            lines.append(_("Be at your table by {time} (rule G15)").format(time=due))
        else:  # rule T3b: N minutes after the table call an absent player loses by forfeit
            lines.append(_("An absent player loses by forfeit from {time} (rule T3b)").format(time=due))
        left = (data.forfeit_due - now).total_seconds()
        lines.append(_("in {left}").format(left=_left(left)) if left > 0 else _("The waiting time is over."))
    if not lines:
        return Page(
            "countdown",
            title,
            lines=(_("No table call yet: the desk sets it when it publishes the round."),),
            empty=True,
        )
    return Page("countdown", title, lines=tuple(lines))


def announcement_pages(data: HallData) -> list[Page]:
    if not data.announcement:
        return _empty(
            "announcement", _("Announcement"), _("No announcement: type one in the projector control.")
        )
    return [Page("announcement", _("Announcement"), lines=tuple(data.announcement.splitlines()))]


def countdown_running(data: HallData, now: datetime) -> bool:
    """Worth a place in the cycle: a table call or forfeit deadline still ahead."""
    times = [t for t in (data.call_at, data.forfeit_due) if t is not None]
    return data.round is not None and any(t > now for t in times)


def build_pages(data: HallData, per: int, now: datetime, only: str | None = None) -> list[Page]:
    """The pages to show: of one kind (``only``, on demand, with its empty state when it has nothing), or of
    every kind that has something to show, in :data:`KINDS` order (the cycle)."""
    makers = {
        "tables": lambda: tables_pages(data, per),
        "names": lambda: names_pages(data, per),
        "standings": lambda: standings_pages(data, per),
        "bracket": lambda: bracket_pages(data, per),
        "countdown": lambda: [countdown_page(data, now)],
        "announcement": lambda: announcement_pages(data),
    }
    if data.event_id is None:
        text = _("Nothing to show yet: choose an event in the projector control at the desk.")
        if only == "announcement" or (only is None and data.announcement):
            return announcement_pages(data)
        return [Page("empty", _("ClubDesk"), lines=(text,), empty=True)]
    if only in makers:
        return makers[only]()
    pages: list[Page] = []
    for kind in KINDS:
        if kind == "countdown" and not countdown_running(data, now):
            continue
        pages += [p for p in makers[kind]() if not p.empty]
    if not pages:
        return [replace(tables_pages(data, per)[0], title=data.event_name or _("Pairings"))]
    return pages
