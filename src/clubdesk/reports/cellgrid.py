"""A ruled grid of plain text cells drawn straight on the canvas (64 filled score sheets).

It looks like :func:`clubdesk.reports.frame.grid` (bold shaded header row, light stripes, aligned number
columns, full-width separator rows, 0.4 pt rules, 0.9 pt box, the header repeated on every page) but
does not go through ReportLab's ``Table``, which measures and styles each of a sheet's thousand cells
one by one. Here every row has the same height, a text's width is measured once per text and font, and
each page part's rules are one path. :func:`fast_grid` falls back to ``grid`` for anything else (a style
command other than a whole-row separator). A flowable body cell (a wrapped note) is wrapped once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from reportlab.lib import colors
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.platypus import Flowable

from clubdesk.reports.fonts import COND, COND_BOLD, register_fonts
from clubdesk.reports.frame import HEAD_BG, INK, RULE, ZEBRA, grid

PAD_TOP, PAD_BOTTOM, PAD_SIDE = 2.0, 2.5, 3.0  # as grid()'s TOP/BOTTOM/LEFT/RIGHTPADDING


@lru_cache(maxsize=8192)
def _width(text: str, font: str, size: float) -> float:
    return float(stringWidth(text, font, size))


class _Row:
    __slots__ = ("cells", "separator", "background", "font", "size", "flows", "height")

    def __init__(
        self, cells: Sequence[str], separator: bool, background: Any, font: str, size: float
    ) -> None:
        self.cells = cells
        self.separator = separator
        self.background = background
        self.font = font
        self.size = size
        # a wrapped note: its column -> the flowable, its height, and with its space before and after
        self.flows: dict[int, tuple[Flowable, float, float]] = {}
        self.height = size * 1.2 + PAD_TOP + PAD_BOTTOM  # one line at the Table's default leading


class CellGrid(Flowable):  # type: ignore[misc]
    """The header row (ReportLab flowables or text), then rows of text; splits between rows."""

    def __init__(
        self,
        head: Sequence[Any],
        rows: Sequence[_Row],
        widths: Sequence[float],
        align: Sequence[str],
        font_size: float,
    ) -> None:
        super().__init__()
        self.head = list(head)
        self.rows = list(rows)
        self.widths = list(widths)
        self.align = list(align)
        self.font_size = font_size
        self.hAlign = "CENTER"  # as a Table
        self._head_h = 0.0
        self._head_parts: list[tuple[Any, float, float]] = []

    def _row_h(self, row: _Row) -> float:
        return row.height

    def _wrap_head(self) -> float:
        if self._head_parts:
            return self._head_h
        h = 0.0  # the tallest cell, as the Table measures it (a text: one line at 1.2 x its size)
        parts = []
        for cell, w in zip(self.head, self.widths, strict=True):
            if isinstance(cell, str):
                parts.append((cell, w, self.font_size * 1.2))
                h = max(h, self.font_size * 1.2)
                continue
            _w, ch = cell.wrap(w - 2 * PAD_SIDE, 10_000)
            parts.append((cell, w, ch))
            h = max(h, ch)
        self._head_parts = parts
        self._head_h = h + PAD_TOP + PAD_BOTTOM
        return self._head_h

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:  # noqa: ARG002
        self.width = sum(self.widths)
        self.height = self._wrap_head() + sum(self._row_h(r) for r in self.rows)
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:  # noqa: ARG002
        room = avail_height - self._wrap_head()
        n = 0
        for r in self.rows:
            room -= self._row_h(r)
            if room < 0:
                break
            n += 1
        if n == 0 or n == len(self.rows):
            return []
        return [self._part(self.rows[:n]), self._part(self.rows[n:])]

    def _part(self, rows: Sequence[_Row]) -> CellGrid:
        part = CellGrid(self.head, rows, self.widths, self.align, self.font_size)
        part._head_parts, part._head_h = self._head_parts, self._head_h
        return part

    def draw(self) -> None:
        c = self.canv
        widths = self.widths
        xs = [0.0]
        for w in widths:
            xs.append(xs[-1] + w)
        total = xs[-1]
        heights = [self._wrap_head()] + [self._row_h(r) for r in self.rows]
        tops = [self.height]
        for h in heights:
            tops.append(tops[-1] - h)
        # backgrounds: the stripes and the separators, then the header (shaded, its cells vertically
        # centred like the Table's): one form per document for every part with the same header
        c.saveState()
        for k, row in enumerate(self.rows, start=1):
            if row.background is not None:
                c.setFillColor(row.background)
                c.rect(0, tops[k + 1], total, heights[k], stroke=0, fill=1)
        c.saveState()
        c.translate(0, tops[1])
        c.doForm(self._head_form(c, xs, heights[0]))
        c.restoreState()
        c.setFillColor(INK)
        # the rows: a row's texts in one text object, each text measured and encoded once per font and
        # document; a row with a note draws each text on its own, as a Table does (text read back from the
        # PDF keeps the note apart from the row's last figure). The operators are those ReportLab's text
        # object writes (``setTextOrigin`` + ``textOut``; ``drawString``), put down without it.
        code = c._code
        enc = _Encoder.of(c)
        self._font = None
        align = self.align
        for k, row in enumerate(self.rows, start=1):
            top, h = tops[k], heights[k]
            enc.reset()
            if row.flows:
                if self._font != (row.font, row.size):
                    c.setFont(row.font, row.size)
                    self._font = (row.font, row.size)
                for i, cell in enumerate(row.cells):
                    if cell:
                        self._put(
                            None, enc, code, cell, xs[i], widths[i], top, h, row.font, row.size, align[i]
                        )
                for i, (flow, fh, spaced) in row.flows.items():  # placed as the Table's MIDDLE places it
                    flow.drawOn(c, xs[i] + PAD_SIDE, top - h + (h + PAD_BOTTOM - PAD_TOP + spaced) / 2 - fh)
                    self._font = None
                continue
            font, size = row.font, row.size
            ys = fp_str(top - h + (PAD_BOTTOM + h - PAD_TOP + size * 1.2) / 2 - size)  # the Table's MIDDLE
            ops = ["BT", "1 0 0 1 0 0 Tm"]
            if row.separator:
                cell = row.cells[0] if row.cells else ""
                ops.append(f"1 0 0 1 {_x(cell, 0.0, total, 'LEFT', font, size)} {ys} Tm")
                ops.append(enc.text(cell, font, size))
            else:
                for i, cell in enumerate(row.cells):
                    if cell:
                        ops.append(f"1 0 0 1 {_x(cell, xs[i], widths[i], align[i], font, size)} {ys} Tm")
                        ops.append(enc.text(cell, font, size))
            ops.append("ET")
            code.append(" ".join(ops))
        # the rules: one path for the page part (the operators PDFPathObject's moveTo/lineTo write), then
        # the box
        p = c.beginPath()
        rules = ["n"]
        tx = fp_str(total)
        ft = [fp_str(t) for t in tops]  # each rule's end formatted once
        for fy in ft[1:-1]:
            rules.append(f"0 {fy} m {tx} {fy} l")
        for i in range(1, len(widths)):
            fx = fp_str(xs[i])
            run_top: int | None = 0  # the index in ``tops`` where the column's current rule starts
            for k in range(1, len(heights)):
                sep = self.rows[k - 1].separator
                if sep and run_top is not None:
                    rules.append(f"{fx} {ft[run_top]} m {fx} {ft[k]} l")
                    run_top = None
                elif not sep and run_top is None:
                    run_top = k
            if run_top is not None:
                rules.append(f"{fx} {ft[run_top]} m {fx} {ft[-1]} l")
        if len(rules) > 1:
            p._code.extend(rules)
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        c.drawPath(p, stroke=1, fill=0)
        c.setStrokeColor(INK)
        c.setLineWidth(0.9)
        c.rect(0, tops[-1], total, tops[0] - tops[-1], stroke=1, fill=0)
        c.restoreState()

    def _head_form(self, c: Any, xs: Sequence[float], h: float) -> str:
        """The name of the form XObject drawing this header (made on first use in the document)."""
        doc = c._doc
        forms: dict[tuple[Any, ...], tuple[str, list[Any]]] | None = getattr(doc, "_clubdesk_heads", None)
        if forms is None:
            forms = doc._clubdesk_heads = {}
        key = (tuple(id(cell) for cell in self.head), tuple(self.widths), self.font_size, h)
        got = forms.get(key)
        if got is not None:
            return got[0]
        name = f"ClubDeskHead{len(forms) + 1}"
        forms[key] = (name, self.head)  # the cells kept alive: their ids stay theirs
        c.beginForm(name)
        c.setFillColor(HEAD_BG)
        c.rect(0, 0, xs[-1], h, stroke=0, fill=1)
        c.setFillColor(INK)
        avail = h - PAD_TOP - PAD_BOTTOM
        for i, (cell, _w, ch) in enumerate(self._head_parts):
            if isinstance(cell, str):
                c.setFont(COND_BOLD, self.font_size)
                c.drawString(xs[i] + PAD_SIDE, PAD_BOTTOM + (avail - ch) / 2, cell)
            else:
                cell.drawOn(c, xs[i] + PAD_SIDE, PAD_BOTTOM + (avail - ch) / 2)
        c.endForm()
        return name

    @staticmethod
    def _put(
        ops: list[str] | None,
        enc: _Encoder,
        code: list[str],
        text: str,
        x: float,
        w: float,
        top: float,
        h: float,
        font: str,
        size: float,
        al: str,
    ) -> None:
        """One text: into the row's text object ``ops`` (``setTextOrigin``/``textOut``), or (``ops`` None)
        as a text object of its own onto the page's ``code`` (``drawString``)."""
        y = top - h + (PAD_BOTTOM + h - PAD_TOP + size * 1.2) / 2 - size  # the Table's MIDDLE
        x = _left(text, x, w, al, font, size)
        if ops is None:
            enc.reset()
            code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {enc.text(text, font, size)} T* ET")
        else:
            ops.append(f"1 0 0 1 {fp_str(x, y)} Tm")
            ops.append(enc.text(text, font, size))


_XS: dict[tuple[str, float, float, str, str, float], str] = {}


def _x(text: str, x: float, w: float, al: str, font: str, size: float) -> str:
    """A text's left edge in its cell (as :meth:`CellGrid._put` places it), formatted for the PDF; the
    same text in the same column of the same grid is placed alike on every sheet."""
    key = (text, x, w, al, font, size)
    got = _XS.get(key)
    if got is None:
        if len(_XS) > 65536:
            _XS.clear()
        got = _XS[key] = fp_str(_left(text, x, w, al, font, size))
    return got


def _left(text: str, x: float, w: float, al: str, font: str, size: float) -> float:
    """A text's left edge in a cell at ``x`` of width ``w``, aligned as the Table aligns it."""
    if al == "RIGHT":
        return x + w - PAD_SIDE - _width(text, font, size)
    if al == "CENTER":
        return x + (w - _width(text, font, size)) / 2
    return x + PAD_SIDE


class _Encoder:
    """A text's PDF string operators in a TrueType font, encoded once per document (the glyphs' subsets
    are the document's), as ReportLab's text object writes them: a font switch where the subset changes,
    then ``(...) Tj``. ``reset`` starts a new text object (no subset chosen yet)."""

    __slots__ = ("canv", "doc", "pieces", "current")

    def __init__(self, canv: Any) -> None:
        self.canv = canv
        self.doc = canv._doc
        self.pieces: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
        self.current: tuple[str, float, str] | None = None

    @classmethod
    def of(cls, canv: Any) -> _Encoder:
        doc = canv._doc
        enc: _Encoder | None = getattr(doc, "_clubdesk_encoder", None)
        if enc is None:
            enc = cls(canv)
            doc._clubdesk_encoder = enc
        enc.canv = canv
        return enc

    def reset(self) -> None:
        self.current = None

    def text(self, text: str, font: str, size: float) -> str:
        key = (text, font)
        pieces = self.pieces.get(key)
        if pieces is None:
            f = getFont(font)
            escape = self.canv._escape
            pieces = tuple(
                (f.getSubsetInternalName(subset, self.doc), f"({escape(chunk)}) Tj")
                for subset, chunk in f.splitString(text, self.doc)
            )
            self.pieces[key] = pieces
        if len(pieces) == 1 and self.current == (font, size, pieces[0][0]):
            return pieces[0][1]
        out = []
        for name, tj in pieces:
            if self.current != (font, size, name):
                out.append(f"{name} {fp_str(size)} Tf {fp_str(size * 1.2)} TL")
                self.current = (font, size, name)
            out.append(tj)
        return " ".join(out)


def fast_grid(
    rows: Sequence[Sequence[Any]],
    widths: Sequence[float],
    *,
    font_size: float = 8.5,
    right: Sequence[int] = (),
    center: Sequence[int] = (),
    extra: Sequence[tuple[Any, ...]] = (),
) -> Flowable:
    """``grid(rows, widths, ...)`` with one header row, drawn as a :class:`CellGrid` when ``extra`` only
    marks whole-row separators (SPAN, BACKGROUND, FONT over a whole row)."""
    register_fonts()
    body = rows[1:]
    seps: dict[int, dict[str, Any]] = {}
    for cmd in extra:
        name, start, end = cmd[0], cmd[1], cmd[2]
        if start[0] != 0 or end[0] != -1 or start[1] != end[1] or name not in ("SPAN", "BACKGROUND", "FONT"):
            return grid(rows, widths, font_size=font_size, right=right, center=center, extra=extra)
        seps.setdefault(start[1], {})[name] = cmd[3:]
    align = ["RIGHT" if i in right else "CENTER" if i in center else "LEFT" for i in range(len(widths))]
    out = []
    shades: dict[Any, Any] = {}
    for k, cells in enumerate(body, start=1):
        texts = list(cells)
        flows = [i for i, c in enumerate(texts) if type(c) is not str]  # noqa: E721 - exact type, fast
        for i in flows:
            if not isinstance(texts[i], str | Flowable):
                return grid(rows, widths, font_size=font_size, right=right, center=center, extra=extra)
        sep = seps.get(k)
        if sep is None:
            font, size, background, span = COND, font_size, (ZEBRA if (k - 1) % 2 == 1 else None), False
        else:
            font, size = (sep["FONT"][0], float(sep["FONT"][1])) if "FONT" in sep else (COND, font_size)
            background = ZEBRA if (k - 1) % 2 == 1 else None
            if "BACKGROUND" in sep:
                shade = sep["BACKGROUND"][0]
                key = shade if isinstance(shade, str) else id(shade)
                if key not in shades:
                    shades[key] = colors.toColor(shade)
                background = shades[key]
            span = "SPAN" in sep
        row = _Row(texts, span, background, font, size)
        for i in flows:
            c = texts[i]
            if isinstance(c, str):
                continue
            texts[i] = ""
            _w, fh = c.wrap(widths[i] - 2 * PAD_SIDE, 10_000)
            spaced = fh + c.getSpaceBefore() + c.getSpaceAfter()
            row.flows[i] = (c, fh, spaced)
            row.height = max(row.height, spaced + PAD_TOP + PAD_BOTTOM)
        out.append(row)
    return CellGrid(rows[0], out, widths, align, font_size)
