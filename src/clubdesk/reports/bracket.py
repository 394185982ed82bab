"""Single and double elimination brackets as a tree, up to 64 entrants on one page (rules T4c, T4d, T12a).

The tree is drawn straight on the canvas by one flowable that scales itself to the page: winners' bracket
on top (round 1 on the left), losers' bracket below it, the grand final (and its reset) on the right.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, PageBreak, Paragraph

from clubdesk.i18n import _
from clubdesk.pairing.bracket import SourceKind
from clubdesk.reports.data import BracketData, BracketMatchData, ReportHeader
from clubdesk.reports.fonts import COND, COND_BOLD
from clubdesk.reports.frame import ACCENT, INK, RULE, Styles, content_height, content_width, esc, render


def _clip(text: str, font: str, size: float, width: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


class BracketTree(Flowable):  # type: ignore[misc]
    """The whole bracket, laid out to fill ``width`` × ``height``."""

    def __init__(self, data: BracketData, width: float, height: float) -> None:
        super().__init__()
        self._id_room = True
        self.data = data
        self.width = width
        self.height = height
        self._by_id = {m.id: m for m in data.matches}

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    # ------------------------------------------------------------------ layout
    def _layout(self) -> tuple[dict[str, tuple[int, float]], float, float, int]:
        """Each match's column and centre y (from the top); the column width; the line height."""
        ms = self.data.matches
        wins = [m for m in ms if m.bracket == "W"]
        loss = [m for m in ms if m.bracket == "L"]
        w_rounds = max((m.round for m in wins), default=1)
        l_rounds = max((m.round for m in loss), default=0)
        first = max(1, sum(1 for m in wins if m.round == 1))
        title_h = 12.0
        if loss and wins:
            w_h = (self.height - 2 * title_h) * first / (first + first / 2 + 0.5)
            l_h = self.height - 2 * title_h - w_h
        elif loss:  # the losers' bracket on a page of its own
            w_h, l_h = -title_h, self.height - title_h
            first = max(1, max(sum(1 for m in loss if m.round == r) for r in range(1, l_rounds + 1)))
        else:
            w_h, l_h = self.height - title_h, 0.0
        slot = (w_h if wins else l_h) / first  # height of one first-round match
        # names of at least 6 pt wherever a round-1 slot allows it (a box takes up to half of its slot)
        line = min(14.0, max(slot * 0.4, min(slot * 0.49, 6.0 / 0.62)))
        pos: dict[str, tuple[int, float]] = {}
        for m in wins:
            span = slot * 2 ** (m.round - 1)
            pos[m.id] = (m.round - 1, title_h + (m.number - 0.5) * span)
        if loss:
            top = 2 * title_h + w_h
            for r in range(1, l_rounds + 1):
                rnd = sorted((m for m in loss if m.round == r), key=lambda m: m.number)
                span = l_h / max(1, len(rnd))
                for m in rnd:
                    pos[m.id] = (r - 1, top + (m.number - 0.5) * span)
        last_col = max(w_rounds, l_rounds)
        final_y = pos.get(next((m.id for m in wins if m.round == w_rounds), ""), (0, self.height / 2))[1]
        extra_cols = 0
        for m in ms:
            if m.bracket == "GF":
                pos[m.id] = (last_col, final_y if not loss else (title_h + w_h) * 0.75)
                extra_cols = max(extra_cols, 1)
            elif m.bracket == "GF2":
                pos[m.id] = (last_col + 1, (title_h + w_h) * 0.75)
                extra_cols = max(extra_cols, 2)
            elif m.bracket == "3P":
                pos[m.id] = (w_rounds - 1, min(self.height - line * 2, final_y + max(4 * line, w_h / 4)))
        cols = (last_col if loss else w_rounds) + max(extra_cols, 0) + (1 if wins else 0)  # + the champion
        col_w = self.width / cols
        return pos, col_w, line, cols

    def _slot_room(self, pos: dict[str, tuple[int, float]], line: float, fs: float) -> bool:
        """Whether the match ids fit above the boxes (the closest two boxes of a column leave room)."""
        by_col: dict[int, list[float]] = {}
        for col, y in pos.values():
            by_col.setdefault(col, []).append(y)
        gaps = [b - a for ys in by_col.values() for a, b in zip(sorted(ys), sorted(ys)[1:], strict=False)]
        return not gaps or min(gaps) - 2 * line >= fs * 0.7 + 2

    def _target(self, m: BracketMatchData) -> str | None:
        if m.next_match:
            return m.next_match
        if m.bracket == "W":
            nxt = f"W{m.round + 1}-{(m.number + 1) // 2}"
            return nxt if nxt in self._by_id else None
        return None

    # ------------------------------------------------------------------ drawing
    def draw(self) -> None:
        c = self.canv
        pos, col_w, line, cols = self._layout()
        fs = max(4.2, min(8.5, line * 0.62))
        self._id_room = self._slot_room(pos, line, fs)
        gap = 6.0
        # round 1 holds every name: it gets a wider column when there are many rounds
        wins = any(m.bracket == "W" for m in self.data.matches)
        weights = [1.6 if k == 0 and wins and cols >= 4 else 1.0 for k in range(cols + 1)]
        unit = self.width / sum(weights[:cols])
        xs = [sum(weights[:k]) * unit for k in range(cols + 1)]
        ws = [w * unit for w in weights]
        top = self.height

        def y_of(v: float) -> float:
            return top - v

        c.setFont(COND_BOLD, 9)
        c.setFillColor(ACCENT)
        if any(m.bracket == "L" for m in self.data.matches) and wins:
            c.drawString(0, y_of(9), _("Winners' bracket"))
            lows = [pos[m.id][1] for m in self.data.matches if m.bracket == "L"]
            c.drawString(0, y_of(min(lows) - line - 4), _("Losers' bracket"))
        for m in self.data.matches:
            col, cy = pos[m.id]
            x = xs[col]
            box_w = ws[col] - gap
            self._draw_match(m, x, y_of(cy), box_w, line, fs)
            target = self._target(m)
            if target and target in pos:
                tcol, tcy = pos[target]
                tm = self._by_id[target]
                side = 0 if m.number % 2 == 1 and tm.bracket == m.bracket == "W" else 1
                if tm.bracket != "W" or m.bracket != "W":
                    side = 0 if cy <= tcy else 1
                ty = y_of(tcy) + (line / 2 if side == 0 else -line / 2)
                tx = xs[tcol]
                mid = x + box_w + (tx - x - box_w) / 2 if tcol > col else x + box_w + gap / 2
                c.setStrokeColor(RULE)
                c.setLineWidth(0.6)
                c.line(x + box_w, y_of(cy), mid, y_of(cy))
                c.line(mid, y_of(cy), mid, ty)
                c.line(mid, ty, tx, ty)
        # champion
        final = next((m for m in self.data.matches if m.bracket == "GF2" and m.winner is not None), None)
        final = final or next((m for m in self.data.matches if m.bracket == "GF"), None)
        if final is None:
            w_rounds = max((m.round for m in self.data.matches if m.bracket == "W"), default=1)
            final = next((m for m in self.data.matches if m.bracket == "W" and m.round == w_rounds), None)
        if final is not None:
            col, cy = pos[final.id]
            x = xs[min(cols, max(p[0] for p in pos.values()) + 1)]
            c.setStrokeColor(INK)
            c.setLineWidth(0.6)
            c.line(xs[col] + ws[col] - gap, y_of(cy), x, y_of(cy))
            c.setFillColor(ACCENT)
            c.setFont(COND_BOLD, min(9.5, fs + 1.5))
            c.drawString(x + 3, y_of(cy) + 3 + fs, _("Champion"))
            champ = self.data.champion or ""
            c.setFillColor(INK)
            c.drawString(x + 3, y_of(cy) - fs / 3, _clip(champ, COND_BOLD, min(9.5, fs + 1.5), col_w - 6))

    def _draw_match(self, m: BracketMatchData, x: float, cy: float, w: float, line: float, fs: float) -> None:
        c = self.canv
        c.setStrokeColor(INK)
        c.setLineWidth(0.7)
        c.rect(x, cy - line, w, 2 * line, stroke=1, fill=0)
        c.setStrokeColor(RULE)
        c.setLineWidth(0.3)
        c.line(x, cy, x + w, cy)
        if line >= 7 and self._id_room:  # the match id above the box, where there is room for it
            c.setFont(COND, max(4.0, fs * 0.7))
            c.setFillColor(colors.HexColor("#666666"))
            c.drawString(x + 1, cy + line + 1, m.id)
        score_w = stringWidth("00", COND_BOLD, fs) + 3 if any(m.score) else 0
        for side in (0, 1):
            name = m.sides[side]
            seed = m.seeds[side]
            text = name if name is not None else (m.labels[side] or "")
            if name is not None and seed is not None:
                text = f"{seed}  {text}"
            won = m.winner == side
            font = COND_BOLD if won else COND
            ty = cy + (line / 2 if side == 0 else -line / 2) - fs / 3
            c.setFillColor(INK if name is not None else colors.HexColor("#777777"))
            size = fs
            room = w - 4 - score_w
            if name is None and stringWidth(text, font, fs) > room:
                # "winner of W1-13": a label may be set smaller (names keep their size, at least 6 pt)
                size = max(4.5, fs * room / max(1.0, stringWidth(text, font, fs)))
            c.setFont(font, size)
            c.drawString(x + 2, ty, _clip(text, font, size, room))
            if m.score[side]:
                c.setFont(COND_BOLD if won else COND, fs)
                c.drawRightString(x + w - 2, ty, m.score[side])


def bracket(out: str | Path | IO[bytes], header: ReportHeader, data: BracketData) -> int:
    entrants = sum(1 for m in data.matches if m.bracket == "W" and m.round == 1) * 2
    wide = (data.kind == "double" and entrants <= 16) or (data.kind == "single" and entrants <= 8)
    width = content_width(header, wide)
    height = content_height(header, wide) - 12 * mm

    split = data.kind == "double" and entrants > 16

    def build(st: Styles) -> list[Flowable]:
        title = _("Double elimination") if data.kind == "double" else _("Single elimination")
        if not split:
            return [Paragraph(esc(title), st.title), BracketTree(data, width, height)]
        # a big double elimination over two pages, names of at least 6 pt: the winners' bracket and the
        # finals, then the losers' bracket
        upper = replace(data, matches=tuple(m for m in data.matches if m.bracket != "L"))
        lower = replace(data, matches=tuple(m for m in data.matches if m.bracket == "L"), champion=None)
        return [
            Paragraph(esc(title + " · " + _("Winners' bracket")), st.title),
            BracketTree(upper, width, height),
            PageBreak(),
            Paragraph(esc(title + " · " + _("Losers' bracket")), st.title),
            BracketTree(lower, width, height),
        ]

    return render(out, header, lambda: _("Bracket"), build, wide=wide)


def smallest_name_size(data: BracketData, header: ReportHeader) -> float:
    """The font size the bracket's names are printed at (for the layout tests: at least 6 pt)."""
    entrants = sum(1 for m in data.matches if m.bracket == "W" and m.round == 1) * 2
    wide = (data.kind == "double" and entrants <= 16) or (data.kind == "single" and entrants <= 8)
    width = content_width(header, wide)
    height = content_height(header, wide) - 12 * mm
    parts = [data]
    if data.kind == "double" and entrants > 16:
        parts = [
            replace(data, matches=tuple(m for m in data.matches if m.bracket != "L")),
            replace(data, matches=tuple(m for m in data.matches if m.bracket == "L")),
        ]
    sizes = []
    for part in parts:
        _pos, _w, line, _cols = BracketTree(part, width, height)._layout()
        sizes.append(max(4.2, min(8.5, line * 0.62)))
    return min(sizes)


def tree_of(data: BracketData, width: float, height: float) -> Any:
    """The bracket flowable alone (for a preview)."""
    return BracketTree(data, width, height)


def from_bracket(
    b: Any, names: dict[str, str], scores: dict[str, tuple[str, str]] | None = None, hide_void: bool = True
) -> BracketData:
    """Plain :class:`BracketData` from a :class:`clubdesk.pairing.bracket.Bracket` (pure; no database).

    ``names``: entrant id -> printed name; ``scores``: match id -> the two printed scores.
    """
    scores = scores or {}
    feeds: dict[str, str] = {}
    for m in b.matches:
        for src in m.sources:
            if src.kind is SourceKind.WINNER:
                feeds[src.ref] = m.id
    out: list[BracketMatchData] = []
    for m in b.matches:
        status = b.status(m.id)
        if hide_void and status == "void":
            continue
        sides = b.sides(m.id)
        labels: list[str] = []
        seeds: list[int | None] = []
        for src, who in zip(m.sources, sides, strict=True):
            seed = int(src.ref) if src.kind is SourceKind.SEED else None
            seeds.append(seed)
            if who is None:
                is_bye = src.kind is SourceKind.SEED and b.seeds[int(src.ref) - 1] is None
                labels.append(
                    _("bye")
                    if is_bye or status == "walkover" and src.kind is SourceKind.SEED
                    else src.describe()
                )
            else:
                labels.append("")
        win = b.winner(m.id)
        winner = None if win is None else (0 if win == sides[0] else 1 if win == sides[1] else None)
        out.append(
            BracketMatchData(
                id=m.id,
                bracket=m.bracket,
                round=m.round,
                number=m.number,
                sides=(
                    names.get(sides[0], sides[0]) if sides[0] else None,
                    names.get(sides[1], sides[1]) if sides[1] else None,
                ),
                labels=(labels[0], labels[1]),
                seeds=(seeds[0], seeds[1]),
                score=scores.get(m.id, ("", "")),
                winner=winner,
                next_match=feeds.get(m.id),
            )
        )
    champ = b.champion()
    return BracketData(
        event_id="", kind=b.kind, matches=tuple(out), champion=names.get(champ, champ) if champ else None
    )
