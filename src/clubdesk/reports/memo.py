"""ReportLab's ``Paragraph`` and ``Table`` doing their work once (issue 22: 64 filled score sheets).

A sheet's labels and names recur on every sheet of a night, and ReportLab measures a table and its cells
again at every pass (a table nested in another is wrapped three or four times before it is drawn, each
time wrapping all its paragraphs). :class:`Para` parses a plain text (no markup, no entity) once per
style and keeps the single fragment the parser makes of it, and wraps once per available width;
:class:`MemoTable` lays itself out once per available width. Both draw exactly as ReportLab's own.
"""

from __future__ import annotations

from typing import Any

from reportlab.platypus import Paragraph, Table

_PARSED: dict[tuple[str, int], tuple[Any, str, Any, Any, Any]] = {}
_LIMIT = 4096


class Para(Paragraph):  # type: ignore[misc]
    """``Paragraph(text, style)``, parsed once per (text, style) and wrapped once per width."""

    def __init__(
        self, text: Any, style: Any = None, bulletText: Any = None, frags: Any = None, **kw: Any
    ) -> None:  # noqa: N803
        plain = (
            frags is None and bulletText is None and not kw and style is not None and isinstance(text, str)
        )
        plain = plain and "<" not in text and "&" not in text and getattr(style, "bulletText", None) is None
        if plain:
            hit = _PARSED.get((text, id(style)))
            if hit is not None and hit[0] is style:  # the style itself is held: its id is still its own
                self.caseSensitive = 1
                self.encoding = "utf8"
                _style, self.text, self.style, frag, self.bulletText = hit
                self.frags = [frag]  # one plain fragment: ReportLab's simple line breaking only reads it
                self.debug = 0
                return
        super().__init__(text, style, bulletText, frags, **kw)
        if plain and len(self.frags) == 1 and _simple(self.frags[0]):
            if len(_PARSED) >= _LIMIT:
                _PARSED.clear()
            _PARSED[(text, id(style))] = (style, self.text, self.style, self.frags[0], self.bulletText)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        memo = self.__dict__.get("_wrap_memo")
        if memo is not None and memo[0] == availWidth:
            return memo[1]  # type: ignore[no-any-return]
        got = super().wrap(availWidth, availHeight)
        self._wrap_memo = (availWidth, got)
        return got  # type: ignore[no-any-return]


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
