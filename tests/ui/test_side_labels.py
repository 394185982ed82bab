"""Side labels that tell the sides apart at the Rounds screen: each score column, approval and forfeit names
its side by letter and whole pair or team name (cut in the middle when long, whole in the tooltip), so two
Spanish teams whose names begin alike, or a gaple pair, never read the same."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from sqlalchemy import select

from clubdesk import i18n
from clubdesk.models.event import Entrant
from clubdesk.services.kernel.base import Actor, Role
from clubdesk.services.night.data import settings
from clubdesk.services.night.play import results, rounds
from clubdesk.storage import Database
from clubdesk.text import elide_middle, side_label
from clubdesk.ui.night.rounds_section import RoundsSection
from clubdesk.ui.night.sheet_model import COL_PTS_A, COL_PTS_B, COL_TOT_A, COL_TOT_B
from clubdesk.ui.night.tables_model import tables_in_state
from clubdesk.ui.shell.state import DeskState
from tests.integration.test_night_helpers import DESK, make_event

REF = Actor("Ref", Role.REFEREE)
# each name as a score column's header shows it: both ends, cut in the middle past 14 characters
HEADED = {
    "Equipo Deportivo Municipal Norte": "Equipo…Norte",
    "Equipo Deportivo Municipal Sur": "Equipo…al Sur",
    "Budi Santoso / Agus Wijaya": "Budi Sa…Wijaya",
    "Budi Hartono / Dewi Lestari": "Budi Ha…estari",
    "Sri Rahayu / Wayan Sudirta": "Sri Rah…udirta",
    "Made Ayu / Nyoman Sari": "Made Ay…n Sari",
}


def named_night(tmp_path: Path, ruleset: str, names: list[str], **kw: object) -> tuple[Database, int]:
    db = Database(tmp_path / "club.sqlite3")
    ev, ids = make_event(db, ruleset=ruleset, players=len(names), **kw)  # type: ignore[arg-type]
    with db.session() as s:
        for ent, name in zip(
            s.scalars(select(Entrant).where(Entrant.id.in_(ids)).order_by(Entrant.id)), names, strict=True
        ):
            ent.name = name
    if ruleset == "domino-es":
        settings.configure(db, DESK, ev, encounter_games=2)
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    return db, ev


def headers(panel) -> dict[int, tuple[str, str]]:  # type: ignore[no-untyped-def]
    model = panel.form.model
    return {
        col: (
            model.headerData(col, Qt.Orientation.Horizontal),
            model.headerData(col, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole),
        )
        for col in (COL_PTS_A, COL_PTS_B, COL_TOT_A, COL_TOT_B)
    }


def labels_of(widget) -> list[str]:  # type: ignore[no-untyped-def]
    return [lab.text() for lab in widget.findChildren(QLabel)]


def test_two_spanish_teams_named_alike_get_different_headers_approvals_and_forfeits(
    qtbot, active, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    teams = ["Equipo Deportivo Municipal Norte", "Equipo Deportivo Municipal Sur"]
    db, ev = named_night(tmp_path, "domino-es", teams, fmt="round-robin", per_entrant=4, entry="team")
    section = RoundsSection(DeskState(db, REF))
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    assert panel is not None
    panel._build_form()
    a, b = (str(n) for n in panel.table.names)
    shown = headers(panel)
    texts = [text for text, _tip in shown.values()]
    assert len(set(texts)) == 4  # never two identical headers
    assert shown[COL_PTS_A][0] == "+ A\n" + HEADED[a] and shown[COL_TOT_B][0] == "Σ B"
    assert shown[COL_PTS_B][0] == "+ B\n" + HEADED[b]
    # both ends of a long name stay: "Equipo D…cipal Norte" / "…Sur"
    assert shown[COL_PTS_A][0].endswith(a.split()[-1]) and shown[COL_PTS_B][0].endswith(b.split()[-1])
    assert a in shown[COL_TOT_A][1] and b in shown[COL_TOT_B][1]  # the whole names in the tooltips
    labels = labels_of(panel.decisions)
    assert f"A · {a} approves (Alt+A):" in labels and f"B · {b} approves (Alt+B):" in labels
    assert f"Scorer (anotador), A · {a}:" in labels and f"Counter (recuento), B · {b}:" in labels
    fa, fb = panel.decisions.forfeit_a, panel.decisions.forfeit_b
    assert fa.text() != fb.text() and fa.text().startswith("A · ") and fb.text().startswith("B · ")
    assert "absent: forfeit" in fa.text() and "absent: forfeit" in fb.text()  # the action never cut
    assert fa.toolTip() == f"A · {a} absent: forfeit"


def test_a_gaple_pair_is_named_by_both_players(qtbot, active, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pairs = [
        "Budi Santoso / Agus Wijaya",
        "Budi Hartono / Dewi Lestari",
        "Sri Rahayu / Wayan Sudirta",
        "Made Ayu / Nyoman Sari",
    ]
    db, ev = named_night(tmp_path, "gaple-tournament", pairs, fmt="swiss", rounds=2)
    section = RoundsSection(DeskState(db, REF))
    active(section)
    section.select_event(ev)
    panel = section.open_table(1)
    assert panel is not None
    panel._build_form()
    a, b = (str(n) for n in panel.table.names)
    shown = headers(panel)
    # a first name alone ("Budi") tells nobody which pair: both players' ends show
    assert shown[COL_PTS_A][0] == "+ A\n" + HEADED[a]
    assert a.split("/")[1].split()[-1] in shown[COL_PTS_A][0] and a.split()[0] in shown[COL_PTS_A][0]
    assert shown[COL_PTS_A][0] != shown[COL_PTS_B][0]
    assert f"A · {a} approves (Alt+A):" in labels_of(panel.decisions)


def test_elide_middle_and_side_label() -> None:
    assert elide_middle("Equipo Peña El Cierre", 30) == "Equipo Peña El Cierre"
    cut = elide_middle("Equipo Deportivo Municipal Norte", 16)
    assert len(cut) <= 16 and cut.startswith("Equipo") and cut.endswith("Norte") and "…" in cut
    assert side_label("A", "  Equipo   Sur ") == "A · Equipo Sur"
    assert side_label("A", "Equipo Sur") != side_label("B", "Equipo Sur")


def test_round_counts_agree_in_number_and_gender_in_spanish(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """ "Ronda 1: 2 mesas confirmadas", not "2 confirmado": the count with its noun, in each plural."""

    db, ev = named_night(
        tmp_path, "tavla", ["Ayşe", "Mehmet", "Elif", "Can"], fmt="swiss", rounds=2, match_lengths=[3]
    )
    for table in (1, 2):
        results.set_score(db, DESK, ev, 1, table, (3, 1), confirm=True)
    try:
        for lang, text in (
            ("es", "Ronda 1: 2 mesas confirmadas"),
            ("en", "Round 1: 2 tables confirmed"),
            ("tr", "1. tur: 2 masa teyit edildi"),
        ):
            i18n.set_language(lang)
            section = RoundsSection(DeskState(db, REF))
            qtbot.addWidget(section)
            section.select_event(ev)
            assert section.counts.text() == text
        i18n.set_language("es")
        assert tables_in_state("confirmed", 1) == "1 mesa confirmada"
        assert tables_in_state("waiting", 3) == "3 mesas en espera"
    finally:
        i18n.set_language("en")
