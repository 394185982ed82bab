"""Issue 20, item 9: readable in light and dark system palettes; icons that exist."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QTabWidget

from clubdesk.ui.shell.theme import contrast, icon, is_dark, load_fonts, themed


def dark_palette() -> QPalette:
    p = QPalette()
    for role, hex_ in (
        (QPalette.ColorRole.Window, "#202124"),
        (QPalette.ColorRole.WindowText, "#e8eaed"),
        (QPalette.ColorRole.Base, "#17181a"),
        (QPalette.ColorRole.AlternateBase, "#2a2b2e"),
        (QPalette.ColorRole.Text, "#e8eaed"),
        (QPalette.ColorRole.Button, "#2a2b2e"),
        (QPalette.ColorRole.ButtonText, "#e8eaed"),
    ):
        p.setColor(role, QColor(hex_))
    return p


@pytest.fixture
def dark(qapp):  # type: ignore[no-untyped-def]
    before = QApplication.palette()
    QApplication.setPalette(dark_palette())
    yield
    QApplication.setPalette(before)


def _colors(css: str) -> tuple[QColor | None, QColor | None]:
    fg = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3,6})", css)
    bg = re.search(r"background(?:-color)?:\s*(#[0-9a-fA-F]{3,6})", css)
    return (QColor(fg.group(1)) if fg else None, QColor(bg.group(1)) if bg else None)


def test_the_light_colours_become_readable_ones_on_a_dark_palette(dark) -> None:  # type: ignore[no-untyped-def]
    assert is_dark()
    window = dark_palette().color(QPalette.ColorRole.Window)
    for light in ("#b00020", "#1e3a8a", "#14532d", "#1b5e20", "#92400e", "#6b7280"):
        on_dark = QColor(themed(f"color: {light};")[7:14])
        # WCAG AA for normal text: 4.5 (the light-theme colour itself is far below it on a dark window)
        assert contrast(on_dark, window) >= 4.5, light
        assert contrast(QColor(light), window) < 4.5 or light == "#6b7280"


def test_a_light_palette_keeps_the_design_colours(qapp) -> None:  # type: ignore[no-untyped-def]
    if is_dark():
        pytest.skip("the test machine's palette is dark")
    assert themed("color: #b00020;") == "color: #b00020;"


def test_every_coloured_label_of_every_section_is_readable_on_a_dark_palette(dark, window) -> None:  # type: ignore[no-untyped-def]
    window_bg = QApplication.palette().color(QPalette.ColorRole.Window)
    problems: list[str] = []

    def check() -> None:
        for label in window.findChildren(QLabel):
            if not label.isVisible() or not label.text():
                continue
            fg, bg = _colors(label.styleSheet())
            if fg is None:
                continue
            ratio = contrast(fg, bg or window_bg)
            if ratio < 3.0:
                problems.append(
                    f"{window.current_section()}: {label.objectName() or label.text()[:30]} {ratio:.1f}"
                )

    for key in window.pages:
        window.show_section(key)
        check()
        for tabs in window.current_page().findChildren(QTabWidget):
            for k in range(tabs.count()):
                tabs.setCurrentIndex(k)
                check()
    # the status bar follows the palette (no fixed light background under light text)
    assert "#f3f4f6" not in window.styleSheet()
    assert problems == []


def test_the_lock_is_an_icon_that_exists(qapp) -> None:  # type: ignore[no-untyped-def]
    from clubdesk.services.night.data.reads import TableView
    from clubdesk.ui.night.tables_model import COL_STATE, TablesModel

    lock = icon("lock")
    assert not lock.isNull() and not lock.pixmap(16, 16).isNull()
    model = TablesModel()
    t = TableView(1, (1, 2), ("A", "B"), "confirmed", "played", (1, 0), None, 0, "", True, "", "", None, None)
    model.set_rows([t])
    idx = model.index(0, COL_STATE)
    assert model.data(idx) == "confirmed"  # no emoji a font may lack (it showed as "▯")
    assert not model.data(idx, Qt.ItemDataRole.DecorationRole).isNull()
    assert "locked" in model.data(idx, Qt.ItemDataRole.ToolTipRole)
    # the bundled fonts load (✔ and the Turkish letters always have a glyph)
    assert any("DejaVu" in f for f in load_fonts())
