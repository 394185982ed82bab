"""The shortcuts that bring ``share`` under issue 28's speed target change nothing a member sees: the site
reads every round's pairings in one go and the standings once for its standings page and cross-table,
and the images' PNG files are written by ClubDesk's own encoder, which must give back the painted pixels.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clubdesk.services.night.ranking import standings
from clubdesk.services.publishing import night_data, share
from tests.integration.test_reports_service import Club, seeded_club


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    return seeded_club(tmp_path_factory, "shortcuts")


def test_every_round_read_in_one_go_equals_each_round_read_alone(club: Club) -> None:
    together = night_data.pairings_rounds(club.db, club.swiss, [1, 2, 3])
    assert together == tuple(night_data.pairings_data(club.db, club.swiss, n) for n in (1, 2, 3))
    # the points are those before each round: nobody has any before round 1, somebody has before round 3
    points = [{s.points for t in p.tables for s in t.sides if s is not None} for p in together]
    assert points[0] == {"0"} and points[2] != {"0"}


def test_standings_given_equal_standings_read(club: Club) -> None:
    est = standings.event_standings(club.db, club.swiss)
    assert night_data.standings_data(club.db, club.swiss, est) == night_data.standings_data(
        club.db, club.swiss
    )
    assert share.crosstable_data(club.db, club.swiss, est) == share.crosstable_data(club.db, club.swiss)


def test_png_written_by_clubdesk_decodes_to_the_painted_pixels(tmp_path: Path) -> None:
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QColor, QImage, QPainter

    from clubdesk.reports import image_canvas, images

    image_canvas.start_gui()
    img = QImage(301, 77, QImage.Format.Format_RGB32)  # odd sizes: no row padding hides a mistake
    img.fill(QColor("white"))
    p = QPainter(img)
    p.fillRect(QRect(10, 5, 120, 30), QColor(image_canvas.ACCENT))
    p.setFont(image_canvas.font(28))
    p.setPen(QColor(image_canvas.INK))
    p.drawText(QRect(140, 20, 160, 50), 0, "Işık 5–3")
    p.end()
    rows, width, height = images._png_rows(img)  # as the writer thread reads it
    path = tmp_path / "x.png"
    path.write_bytes(images.png_bytes(rows, width, height))
    back = QImage(str(path))  # read by Qt's own PNG reader (libpng)
    assert (back.width(), back.height()) == (301, 77)
    back = back.convertToFormat(QImage.Format.Format_RGB32)
    assert all(back.pixel(x, y) == img.pixel(x, y) for y in range(77) for x in range(301))
    assert back.pixel(20, 10) == QColor(image_canvas.ACCENT).rgb()
