"""The club's static web site: plain HTML pages and one small stylesheet, no script.

Self-contained: no external address (no CDN, web font or analytics), links relative so that the site works
from the disk (``file://``) and from any web host; stable file names (``event-12-standings.html``...) so that
this week's upload replaces last week's. Every page sets ``lang``, every table has header cells, the pages
read on a phone and print. No database here: the services gather the data into
:class:`clubdesk.reports.data.SiteData`.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path

from clubdesk.i18n import _
from clubdesk.reports import data as report_data
from clubdesk.reports.data import SiteData, SiteEvent
from clubdesk.reports.frame import fmt_date
from clubdesk.reports.words import (
    TIEBREAK_LEGEND,
    bracket_rounds,
    crosstable_legend,
    side_text,
    standings_title,
)

STYLE = """\
:root { --accent: #1f4e79; --zebra: #eef3f8; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0 auto; max-width: 60rem;
       padding: 0.75rem; color: #111; line-height: 1.4; overflow-wrap: anywhere; }
header { border-bottom: 3px solid var(--accent); margin-bottom: 1rem; display: flex; gap: 1rem;
         align-items: center; }
header div { min-width: 0; }
header img { max-height: 4rem; max-width: 8rem; }
h1 { color: var(--accent); font-size: 1.5rem; margin: 0.3rem 0; }
h2 { font-size: 1.25rem; }
nav a, nav span { margin-right: 0.8rem; white-space: nowrap; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
th, td { padding: 0.3rem 0.5rem; text-align: left; border-bottom: 1px solid #ccd; overflow-wrap: anywhere; }
thead th { overflow-wrap: normal; }
thead th { background: var(--accent); color: #fff; }
tbody tr:nth-child(even) { background: var(--zebra); }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.cut td { border-bottom: 3px solid var(--accent); }
.note { color: #444; font-size: 0.9rem; }
svg text { font-family: "DejaVu Sans", Verdana, sans-serif; font-size: 12px; }
@media (max-width: 30rem) { body { padding: 0.5rem; } th, td { padding: 0.3rem 0.2rem; font-size: 0.85rem; }
  thead th { font-size: 0.75rem; } }
@media print { nav, .noprint { display: none; } body { max-width: none; } thead th { color: #000;
  background: #ddd; } }
"""


def e(text: object) -> str:
    return escape(str(text), quote=True)


def event_page(event_id: int, what: str = "") -> str:
    """The stable file name of an event's page: ``event-12.html``, ``event-12-standings.html``..."""
    return f"event-{event_id}{'-' + what if what else ''}.html"


def round_page(event_id: int, round_no: int) -> str:
    return event_page(event_id, f"round-{round_no}")


def _page(data: SiteData, title: str, body: str, logo: str | None) -> str:
    img = f'<img src="{e(logo)}" alt="">' if logo else ""
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{e(data.language)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{e(title)} · {e(data.club)}</title>\n"
        '<link rel="stylesheet" href="style.css">\n</head>\n<body>\n'
        f'<header>{img}<div><a href="index.html">{e(data.club)}</a><h1>{e(title)}</h1></div></header>\n'
        f"<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def table(
    heads: Sequence[str],
    rows: Iterable[Sequence[str]],
    numeric: Iterable[int] = (),
    caption: str = "",
    cut_after: int | None = None,
    raw: Iterable[int] = (),
) -> str:
    """A table with header cells (``th scope=col``); ``raw`` columns hold HTML already escaped."""
    num = set(numeric)
    raw_cols = set(raw)
    out = ['<div class="scroll"><table>']
    if caption:
        out.append(f"<caption>{e(caption)}</caption>")

    def cls(i: int) -> str:
        return ' class="n"' if i in num else ""

    out.append("<thead><tr>" + "".join(f'<th scope="col"{cls(i)}>{e(h)}</th>' for i, h in enumerate(heads)))
    out.append("</tr></thead><tbody>")
    for k, row in enumerate(rows):
        tr = ' class="cut"' if cut_after is not None and k == cut_after else ""
        cells = "".join(f"<td{cls(i)}>{c if i in raw_cols else e(c)}</td>" for i, c in enumerate(row))
        out.append(f"<tr{tr}>{cells}</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def _nav(ev: SiteEvent, here: str) -> str:
    links = [(event_page(ev.id), _("Event")), (event_page(ev.id, "standings"), _("Standings"))]
    links += [(round_page(ev.id, p.round), _("Round {n}").format(n=p.round)) for p in ev.rounds]
    if ev.bracket is not None:
        links.append((event_page(ev.id, "bracket"), _("Bracket")))
    links.append((event_page(ev.id, "crosstable"), _("Cross-table")))
    bits = [f"<span>{e(t)}</span>" if f == here else f'<a href="{e(f)}">{e(t)}</a>' for f, t in links]
    return "<nav>" + " ".join(bits) + "</nav>"


def _standings(sd: report_data.StandingsData) -> str:
    codes = [c for c in sd.codes if c != "PTS"]
    heads = [_("Rank"), _("Name"), _("Club"), _("Pts"), *codes]
    rows = [
        [
            str(r.rank),
            r.name + (" ⚑" if r.playoff else ""),
            r.club,
            r.points,
            *(r.tiebreaks.get(c, "") for c in codes),
        ]
        for r in sd.rows
    ]
    numeric = [0, 3, *range(4, 4 + len(codes))]
    legend = "; ".join(f"{c}: {_(TIEBREAK_LEGEND.get(c, c))}" for c in ("PTS", *codes))
    expl = "".join(f"<li>{e(x)}</li>" for x in sd.explanations)
    out = f"<h2>{e(standings_title(sd))}</h2>\n" + table(heads, rows, numeric)
    out += f'\n<p class="note">{e(legend)}</p>'
    if expl:
        out += f"\n<h2>{e(_('How the ties were broken'))}</h2>\n<ul>{expl}</ul>"
    return out


def _round(ev: SiteEvent, pd: report_data.PairingsData) -> str:
    heads = [_("Table"), _("Side 1"), _("Pts"), _("Result"), _("Side 2"), _("Pts")]
    rows = [t.shared_row() for t in pd.tables]
    out = f"<h2>{e(_('Pairings, round {n}').format(n=pd.round))}</h2>\n"
    if pd.call_time:
        out += f'<p class="note">{e(_("Tables are called at {time}.").format(time=pd.call_time))}</p>\n'
    return out + table(heads, rows, numeric=(0, 2, 5))


def _cross(ev: SiteEvent) -> str:

    ct = ev.cross
    heads = ["#", _("Name"), _("Pts"), *(str(n + 1) for n in range(ct.rounds))]
    rows = [[str(r.rank), r.name, r.points, *r.cells] for r in ct.rows]
    return (
        f"<h2>{e(_('Cross-table'))}</h2>\n"
        + table(heads, rows, numeric=(0, 2))
        + f'\n<p class="note">{e(crosstable_legend())}</p>'
    )


BOX_NAME = 22  # characters of 12-unit bold text that stop before the score at a 210-unit box's right end


def box_name(name: str) -> str:
    """A name as a bracket box holds it: a longer one cut with "…" (the whole name is the tooltip)."""
    return name if len(name) <= BOX_NAME else name[: BOX_NAME - 1] + "…"


def bracket_svg(bd: report_data.BracketData) -> str:
    """The bracket as inline SVG: one column per round, each match a box with its two sides and score."""

    columns = bracket_rounds(bd)
    box_w, box_h, gap_x, gap_y, head = 210, 44, 30, 14, 24
    tallest = max((len(ms) for _h, ms in columns), default=1)
    height = head + tallest * (box_h + gap_y) + 10
    width = len(columns) * (box_w + gap_x) + 10
    out = [
        f'<svg role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><title>{e(_("Bracket"))}</title>'
    ]
    for c, (title, ms) in enumerate(columns):
        x = 5 + c * (box_w + gap_x)
        out.append(f'<text x="{x}" y="16" font-weight="bold">{e(title)}</text>')
        step = (height - head - 10) / max(1, len(ms))
        for j, m in enumerate(ms):
            y = head + step * j + (step - box_h) / 2
            out.append(
                f'<rect x="{x}" y="{y:.0f}" width="{box_w}" height="{box_h}" fill="#fff" stroke="#1f4e79"/>'
            )
            for k in (0, 1):
                weight = ' font-weight="bold"' if m.winner == k else ""
                ty = y + 17 + k * 20
                name = e(side_text(m, k))
                shown = e(box_name(side_text(m, k)))
                out.append(f'<text x="{x + 5}" y="{ty:.0f}"{weight}><title>{name}</title>{shown}</text>')
                out.append(f'<text x="{x + box_w - 5}" y="{ty:.0f}" text-anchor="end">{e(m.score[k])}</text>')
    out.append("</svg>")
    return "".join(out)


def _bracket(ev: SiteEvent) -> str:

    bd = ev.bracket
    assert bd is not None
    title = _("Double elimination") if bd.kind == "double" else _("Single elimination")
    out = f'<h2>{e(title)}</h2>\n<div class="scroll">{bracket_svg(bd)}</div>\n'
    if bd.champion:
        out += f"<p><strong>{e(_('Champion'))}: {e(bd.champion)}</strong></p>\n"
    rows = []
    for head, ms in bracket_rounds(bd):
        for m in ms:
            score = f"{m.score[0]}–{m.score[1]}" if m.score[0] or m.score[1] else "–"
            rows.append([head, side_text(m, 0), score, side_text(m, 1)])
    return out + table([_("Round"), _("Side 1"), _("Result"), _("Side 2")], rows)


def _event_home(ev: SiteEvent, lang: str) -> str:
    items = [f'<li><a href="{e(event_page(ev.id, "standings"))}">{e(_("Standings"))}</a></li>']
    for p in ev.rounds:
        label = _("Pairings, round {n}").format(n=p.round)
        items.append(f'<li><a href="{e(round_page(ev.id, p.round))}">{e(label)}</a></li>')
    if ev.bracket is not None:
        items.append(f'<li><a href="{e(event_page(ev.id, "bracket"))}">{e(_("Bracket"))}</a></li>')
    items.append(f'<li><a href="{e(event_page(ev.id, "crosstable"))}">{e(_("Cross-table"))}</a></li>')
    when = fmt_date(ev.date, lang) if ev.date else ""
    return f"<p>{e(ev.kind)}{' · ' + e(when) if when else ''}</p>\n<ul>{''.join(items)}</ul>"


def write(folder: Path, data: SiteData) -> list[str]:
    """Write the site into ``folder``; the file names written (``index.html`` first)."""

    files: dict[str, str] = {}
    logo = None
    if data.logo_path:
        logo = "logo" + Path(data.logo_path).suffix.lower()
        shutil.copyfile(data.logo_path, folder / logo)
    # the index: the club, the season's ranking, its events
    body = []
    rk = data.ranking
    if rk is not None and rk.rows:
        heads = [_("Rank"), _("Name"), _("Club"), _("Points")]
        rows = [[str(r.rank), r.name, r.club, r.points_text or str(r.points)] for r in rk.rows]
        body.append(f"<h2>{e(_('Season ranking {season}').format(season=rk.season))}</h2>")
        body.append(
            table(heads, rows, numeric=(0, 3), cut_after=rk.super_final - 1 if rk.super_final else None)
        )
        if rk.super_final:
            note = _("The first {n} are invited to the Super Final (the line under rank {n}).").format(
                n=rk.super_final
            )
            body.append(f'<p class="note">{e(note)}</p>')
    body.append(f"<h2>{e(_('Events'))}</h2>")
    if data.events:
        items = []
        for ev in data.events:
            when = fmt_date(ev.date, data.language) if ev.date else ""
            items.append(
                f'<li><a href="{e(event_page(ev.id))}">{e(ev.name)}</a> · {e(ev.kind)}'
                f"{' · ' + e(when) if when else ''} · "
                f'<a href="{e(event_page(ev.id, "standings"))}">{e(standings_title(ev.standings))}</a></li>'
            )
        body.append("<ul>" + "".join(items) + "</ul>")
    else:
        body.append(f"<p>{e(_('No event has been played yet.'))}</p>")
    title = _("Season {season}").format(season=data.season) if data.season else data.club
    files["index.html"] = _page(data, title, "\n".join(body), logo)
    for ev in data.events:
        pages = {
            event_page(ev.id): _event_home(ev, data.language),
            event_page(ev.id, "standings"): _standings(ev.standings),
            event_page(ev.id, "crosstable"): _cross(ev),
        }
        for pd in ev.rounds:
            pages[round_page(ev.id, pd.round)] = _round(ev, pd)
        if ev.bracket is not None:
            pages[event_page(ev.id, "bracket")] = _bracket(ev)
        for name, content in pages.items():
            files[name] = _page(data, ev.name, _nav(ev, name) + "\n" + content, logo)
    names = list(files)
    for name, content in files.items():
        (folder / name).write_text(content, encoding="utf-8")
    (folder / "style.css").write_text(STYLE, encoding="utf-8")
    names.append("style.css")
    if logo:
        names.append(logo)
    return names
