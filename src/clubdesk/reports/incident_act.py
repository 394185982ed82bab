"""The match act, Acta del Encuentro.

Teams and players, every incident, decision, penalty and appeal with its reasons, and signature lines for
the captains and the referee (rules E8-E20, G2, G3, G16, T1, T9d, T10, T11).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from clubdesk.i18n import _
from clubdesk.reports.data import ActIncident, IncidentActData, ReportHeader
from clubdesk.reports.frame import (
    INK,
    Styles,
    content_width,
    each_from_a_new_page,
    esc,
    fmt_money,
    grid,
    heads,
    render,
)


def _player_ref(licence: str, number: str) -> str:
    """Rule E15: the federation licence beside the player; without one, the club number, labelled as such."""
    if licence:
        return _("licence {licence}").format(licence=licence)
    if number:
        return _("club no. {number}").format(number=number)
    return ""


def _ordinal_count(n: int) -> str:
    return _("time {n} by this pair in this game").format(n=n)


_HEAD_WRAP: list[tuple[Any, ...]] = [("VALIGN", (0, 0), (-1, 0), "BOTTOM")]


def _n(v: int | None) -> str:
    return "" if v is None else str(v)


def player_cell(i: ActIncident) -> str:
    """The pair and the player an incident concerns (E19.4), with the offender's number (E15): markup
    for one Paragraph, one line per fact, so that more facts about the player can be added below."""
    lines = []
    if i.pair and i.pair != i.player:  # a single player's side is the player himself
        lines.append(f"<b>{esc(i.pair)}</b>")
    if i.player:
        ref = _player_ref(i.player_licence, i.player_number)  # rule E15: the offender's federation licence
        lines.append(esc(i.player) + (f" ({esc(ref)})" if ref else ""))
    return "<br/>".join(lines)


def _substitutions(data: IncidentActData, st: Styles, width: float) -> list[Flowable]:
    """Rules E7.2, E20: every substitution, who left, who came in, in which game and from which hand."""
    story: list[Flowable] = [Paragraph(esc(_("Substitutions")), st.h2)]
    if not data.substitutions:
        story.append(Paragraph(esc(_("No substitutions.")), st.note))
        return story
    rows: list[list[Any]] = [
        [_("Side"), _("Player out"), _("Player in"), _("Game"), _("From hand"), _("Reason")]
    ]
    for sub in data.substitutions:
        rows.append(
            [
                Paragraph(esc(sub.side), st.cell),
                Paragraph(esc(sub.player_out), st.cell),
                Paragraph(esc(sub.player_in), st.cell),
                str(sub.game),
                _n(sub.from_hand),
                Paragraph(esc(sub.reason), st.cell),
            ]
        )
    rest = width - 30 * mm
    w = [rest * 0.22, rest * 0.2, rest * 0.2, 12 * mm, 18 * mm, rest * 0.38]
    rows[0] = heads(rows[0], w)
    story.append(grid(rows, w, center=(3, 4), font_size=8))
    return story


def _approvals(data: IncidentActData, st: Styles, width: float) -> list[Flowable]:
    """Rules G13, E6, T8c: who approved each table's result for each side, and how (own phone, the
    same phone with the side's code, at the desk)."""
    if not data.approvals:
        return []
    story: list[Flowable] = [Paragraph(esc(_("Approvals of the result")), st.h2)]
    rows: list[list[Any]] = [[_("Table"), _("Side"), _("Approved by"), _("How")]]
    for a in data.approvals:
        rows.append(
            [
                str(a.table),
                Paragraph(esc(a.side), st.cell),
                Paragraph(esc(a.approved_by), st.cell),
                Paragraph(esc(a.how), st.cell),
            ]
        )
    rest = width - 14 * mm
    w = [14 * mm, rest * 0.34, rest * 0.34, rest * 0.32]
    rows[0] = heads(rows[0], w)
    story.append(grid(rows, w, center=(0,), font_size=8))
    return story


def _decisions(data: IncidentActData, st: Styles, width: float) -> list[Flowable]:
    """Rule E20: every decision of the competent body with its reason and the result it produced."""
    story: list[Flowable] = [Paragraph(esc(_("Decisions (art. 20)")), st.h2)]
    if not data.decisions:
        story.append(Paragraph(esc(_("No decisions under art. 20.")), st.note))
        return story
    rows: list[list[Any]] = [
        [_("Time"), _("Table"), _("Game"), _("Decision"), _("Reason"), _("Result"), _("Decided by")]
    ]
    for d in data.decisions:
        rows.append(
            [
                d.time,
                _n(d.table),
                _n(d.game),
                Paragraph(esc(d.decision) + (f"<br/>{esc(d.side)}" if d.side else ""), st.cell),
                Paragraph(esc(d.reason), st.cell),
                Paragraph(esc(d.result), st.cell),
                Paragraph(esc(d.decided_by), st.cell),
            ]
        )
    fixed = [10 * mm, 9 * mm, 9 * mm]
    rest = width - sum(fixed)
    w = [*fixed, rest * 0.2, rest * 0.3, rest * 0.34, rest * 0.16]
    rows[0] = heads(rows[0], w)
    story.append(grid(rows, w, center=(0, 1, 2), font_size=8))
    return story


def act_facts(data: IncidentActData) -> str:
    """The act's heading line: the encounter, its round and table, each said once."""
    facts = [data.encounter]
    for fact in (
        _("Round {n}").format(n=data.round) if data.round is not None else "",
        _("Table {n}").format(n=data.table) if data.table is not None else "",
    ):
        if fact and fact not in facts:
            facts.append(fact)
    return " · ".join(x for x in facts if x)


def incident_act(
    out: str | Path | IO[bytes], header: ReportHeader, data: IncidentActData | Sequence[IncidentActData]
) -> int:
    """The act of one encounter, or of several (one after the other, each from a new page)."""
    acts = [data] if isinstance(data, IncidentActData) else list(data)

    def build(st: Styles) -> list[Flowable]:
        return each_from_a_new_page(_one_act(act, header, st) for act in acts)

    return render(out, header, lambda: _("Match act"), build)


def _one_act(data: IncidentActData, header: ReportHeader, st: Styles) -> list[Flowable]:
    width = content_width(header)
    lang = header.language
    story: list[Flowable] = [Paragraph(esc(_("Match act (Acta del Encuentro)")), st.title)]
    story.append(Paragraph("<b>" + esc(act_facts(data)) + "</b>", st.body))
    if data.result:
        story.append(Paragraph(esc(_("Result: {result}").format(result=data.result)), st.body))
    if data.referee:
        story.append(Paragraph(esc(_("Referee: {name}").format(name=data.referee)), st.body))
    story.append(Spacer(1, 3 * mm))

    if data.teams:
        cols = []
        for team in data.teams:
            lines = [f"<b>{esc(team.name)}</b>"]
            if team.captain:
                lines.append(esc(_("Captain: {name}").format(name=team.captain)))
            for p in team.players:
                ref = _player_ref(p.licence, p.number)
                num = f" ({esc(ref)})" if ref else ""
                cap = " · " + esc(_("captain")) if team.captain and team.captain == p.name else ""
                lines.append(esc(p.name) + num + cap)
            cols.append(Paragraph("<br/>".join(lines), st.cell))
        story.append(grid([cols], [width / len(cols)] * len(cols), header_rows=0, zebra=False))
        story.append(Spacer(1, 3 * mm))

    story.append(Paragraph(esc(_("Incidents")), st.h2))
    if data.incidents:
        rows: list[list[Any]] = [
            [
                _("Time"),
                _("Table"),
                _("Game"),
                _("Hand"),
                _("Player") if data.family == "tavla" else _("Pair and player"),
                _("Kind"),
                _("What happened"),
                _("Decision"),
                _("Recorded by"),
            ]
        ]
        for i in data.incidents:
            text = i.text
            if i.count and i.count >= 2:
                # rule E19 (Reading): from the second time in a game the act writes the pair's count
                text += f" [{_ordinal_count(i.count)}]"
            decision = [i.decision]
            if i.effect:
                decision.append(_("Effect: {what}").format(what=i.effect))  # rule E15
            if i.intervention:
                decision.append(_("Resolved with {who}").format(who=i.intervention))  # rule E15
            rows.append(
                [
                    i.time,
                    _n(i.table),
                    _n(i.game),
                    _n(i.hand),
                    Paragraph(player_cell(i), st.cell),
                    Paragraph(esc(i.kind), st.cell),
                    Paragraph(esc(text), st.cell),
                    Paragraph("<br/>".join(esc(x) for x in decision if x), st.cell),
                    Paragraph(esc(i.recorded_by), st.cell),
                ]
            )
        fixed = [10 * mm, 9 * mm, 9 * mm, 9 * mm]
        rest = width - sum(fixed)
        w = [*fixed, rest * 0.19, rest * 0.14, rest * 0.26, rest * 0.27, rest * 0.14]
        rows[0] = heads(rows[0], w)
        story.append(grid(rows, w, center=(0, 1, 2, 3), font_size=8, extra=_HEAD_WRAP))
    else:
        story.append(Paragraph(esc(_("No incidents.")), st.note))

    story.extend(_substitutions(data, st, width))
    story.extend(_decisions(data, st, width))
    story.extend(_approvals(data, st, width))

    story.append(Paragraph(esc(_("Penalties")), st.h2))
    if data.penalties:
        rows = [[_("Table"), _("Side"), _("Penalty"), _("Points"), _("Reason"), _("Decided by")]]
        for pen in data.penalties:
            rows.append(
                [
                    "" if pen.table is None else str(pen.table),
                    Paragraph(esc(pen.side), st.cell),
                    Paragraph(esc(pen.kind), st.cell),
                    "" if pen.points is None else str(pen.points),
                    Paragraph(esc(pen.reason), st.cell),
                    Paragraph(esc(pen.decided_by), st.cell),
                ]
            )
        rest = width - 24 * mm
        pw = [10 * mm, rest * 0.22, rest * 0.2, 14 * mm, rest * 0.42, rest * 0.16]
        rows[0] = heads(rows[0], pw)
        story.append(
            grid(
                rows,
                pw,
                center=(0,),
                right=(3,),
                font_size=8,
            )
        )
    else:
        story.append(Paragraph(esc(_("No penalties.")), st.note))

    story.append(Paragraph(esc(_("Appeals")), st.h2))
    if data.appeals:
        for a in data.appeals:
            decision = {"upheld": _("upheld"), "rejected": _("rejected")}.get(a.decision, _("pending"))
            fee = ""
            if a.fee:
                fee = _("fee {fee}").format(fee=fmt_money(a.fee, a.currency, lang))
                if a.refund:
                    fee += ", " + _("refunded {amount} (G16)").format(
                        amount=fmt_money(a.refund, a.currency, lang)
                    )
            rows = [
                [_("Filed by"), a.by, _("Filed at"), a.filed_at],
                [_("Appeal"), Paragraph(esc(a.text), st.cell), "", ""],
                [_("Both sides heard"), Paragraph(esc(a.heard), st.cell), "", ""],
                [_("Decision"), decision, _("Fee"), fee],
                [_("Reasons"), Paragraph(esc(a.reasons), st.cell), "", ""],
            ]
            extra: list[tuple[Any, ...]] = [("SPAN", (1, r), (3, r)) for r in (1, 2, 4)]
            extra.append(("FONT", (0, 0), (0, -1), "DejaVuSansCondensed-Bold", 8.5))
            story.append(
                KeepTogether(
                    [
                        grid(
                            rows,
                            [width * 0.17, width * 0.38, width * 0.12, width * 0.33],
                            header_rows=0,
                            zebra=False,
                            extra=extra,
                        ),
                        Spacer(1, 2 * mm),
                    ]
                )
            )
    else:
        story.append(Paragraph(esc(_("No appeals.")), st.note))

    story.append(Spacer(1, 8 * mm))
    labels = []
    for team in data.teams[:2]:
        labels.append(
            _("Captain, {team}").format(team=team.name) + (f": {team.captain}" if team.captain else "")
        )
    labels.append(_("Referee") + (f": {data.referee}" if data.referee else ""))
    sig = Table(
        [[""] * len(labels), [Paragraph(esc(x), st.small) for x in labels]],
        colWidths=[width / len(labels)] * len(labels),
        rowHeights=[14 * mm, None],
    )
    sig.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "DejaVuSans", 9),
                ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
                ("LEFTPADDING", (0, 0), (-1, -1), 6),
                ("RIGHTPADDING", (0, 0), (-1, -1), 6),
            ]
        )
    )
    story.append(KeepTogether([sig]))
    return story
