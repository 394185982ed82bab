"""ReportLab's ``Paragraph`` and ``Table`` doing their work once (64 filled score sheets).

A sheet's labels and names recur on every sheet of a night, and ReportLab measures a table and its cells
again at every pass (a table nested in another is wrapped three or four times before it is drawn, each
time wrapping all its paragraphs). :class:`Para` parses a plain text (no markup, no entity) once per
style and keeps the single fragment the parser makes of it, and wraps once per available width;
:class:`MemoTable` lays itself out once per available width. Both draw exactly as ReportLab's own.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import fp_str
from reportlab.platypus import Paragraph, Table

_PARSED: dict[tuple[str, int], tuple[Any, str, Any, Any, Any]] = {}
_WRAPPED: dict[tuple[tuple[str, int], float], tuple[Any, dict[str, Any], tuple[float, float]]] = {}
_LIMIT = 4096


class Para(Paragraph):  # type: ignore[misc]
    """``Paragraph(text, style)``, parsed once per (text, style), laid out once per (text, style, width),
    and its drawing operators, made once per document for each (text, style, width), written again
    for every later copy (what ``drawPara`` writes depends on nothing else: it draws at the origin the
    flowable's ``drawOn`` has moved to, inside its own saved and restored graphics state)."""

    def __init__(
        self, text: Any, style: Any = None, bulletText: Any = None, frags: Any = None, **kw: Any
    ) -> None:  # noqa: N803
        plain = (
            frags is None and bulletText is None and not kw and style is not None and isinstance(text, str)
        )
        plain = plain and "<" not in text and "&" not in text and getattr(style, "bulletText", None) is None
        if plain:
            key = (text, id(style))
            hit = _PARSED.get(key)
            if hit is not None and hit[0] is style:  # the style itself is held: its id is still its own
                self.caseSensitive = 1
                self.encoding = "utf8"
                _style, self.text, self.style, frag, self.bulletText = hit
                self.frags = [frag]  # one plain fragment: ReportLab's simple line breaking only reads it
                self.debug = 0
                self._key = key
                return
        super().__init__(text, style, bulletText, frags, **kw)
        if plain and len(self.frags) == 1 and _simple(self.frags[0]) and _plain_style(style):
            if len(_PARSED) >= _LIMIT:
                _PARSED.clear()
                _WRAPPED.clear()
            _PARSED[(text, id(style))] = (style, self.text, self.style, self.frags[0], self.bulletText)
            self._key = (text, id(style))

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        d = self.__dict__
        memo = d.get("_wrap_memo")
        if memo is not None and memo[0] == availWidth:
            return memo[1]  # type: ignore[no-any-return]
        key = d.get("_key")
        if key is not None:
            hit = _WRAPPED.get((key, availWidth))
            if hit is not None and hit[0] is self.style:
                d.update(hit[1])
                self._wrap_memo = (availWidth, hit[2])
                return hit[2]
            before = dict(d)
        got = super().wrap(availWidth, availHeight)
        self._wrap_memo = (availWidth, got)
        if key is not None:
            made = {k: v for k, v in d.items() if k not in _NOT_LAYOUT and before.get(k, _NONE) is not v}
            _WRAPPED[(key, availWidth)] = (self.style, made, got)
        return got  # type: ignore[no-any-return]

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:  # noqa: N803
        """``Flowable.drawOn`` (save, move, draw, restore); a copy already drawn in this document writes
        the same operators without going through the canvas's state bookkeeping."""
        key = self.__dict__.get("_key")
        drawn = getattr(canvas._doc, "_clubdesk_paras", None)
        if key is not None and drawn is not None and not getattr(self, "_showBoundary", None):
            hit = drawn.get((key, self.width, self.height))
            if hit is not None and hit[0] is self.style:
                x = self._hAlignAdjust(x, _sW)
                code = canvas._code
                code.append("q")
                code.append(f"1 0 0 1 {fp_str(x, y)} cm")
                code.extend(hit[1])
                code.append("Q")
                return
        super().drawOn(canvas, x, y, _sW)

    def draw(self) -> None:
        d = self.__dict__
        key = d.get("_key")
        bl = d.get("blPara")
        if (
            key is None
            or bl is None
            or bl.kind != 0
            or getattr(bl, "us_lines", None)
            or getattr(bl, "link", None)
            or not _plain_colour(getattr(bl, "textColor", None))
        ):
            super().draw()
            return
        canv = self.canv
        doc = canv._doc
        drawn: dict[tuple[Any, ...], tuple[Any, list[str]]] | None = getattr(doc, "_clubdesk_paras", None)
        if drawn is None:
            drawn = doc._clubdesk_paras = {}
        k = (key, self.width, self.height)
        hit = drawn.get(k)
        if hit is not None and hit[0] is self.style:
            canv._code.extend(hit[1])
            return
        code = canv._code
        n = len(code)
        super().draw()
        if canv._code is code:
            drawn[k] = (self.style, code[n:])


_NONE = object()
_NOT_LAYOUT = frozenset({"canv", "_wrap_memo", "_key"})


def _plain_colour(colour: Any) -> bool:
    """An opaque RGB colour: setting it writes one operator and registers nothing with the page."""
    return type(colour) is Color and getattr(colour, "alpha", 1) == 1


def _plain_style(style: Any) -> bool:
    """No background, border, bullet or underline: drawPara writes only the text (and its colour)."""
    return (
        not getattr(style, "backColor", None)
        and not (getattr(style, "borderWidth", 0) and getattr(style, "borderColor", None))
        and not getattr(style, "bulletText", None)
        and not getattr(style, "underline", False)
        and not getattr(style, "strike", False)
        and getattr(style, "wordWrap", None) not in ("RTL", "LTR", "CJK")
    )


def _simple(frag: Any) -> bool:
    return hasattr(frag, "text") and not any(
        hasattr(frag, a) for a in ("cbDefn", "backColor", "lineBreak", "_fkind", "words")
    )


class MemoTable(Table):  # type: ignore[misc]
    """A ``Table`` whose layout is worked out once per available width (its cells' heights do not depend
    on the height offered: paragraphs, strings, nested tables of those)."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        memo = self.__dict__.get("_wrap_memo")
        if memo is not None and memo[0] == availWidth:
            self.availWidth = availWidth
            return memo[1]  # type: ignore[no-any-return]
        got = super().wrap(availWidth, availHeight)
        self._wrap_memo = (availWidth, got)
        return got  # type: ignore[no-any-return]
