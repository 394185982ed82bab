"""The pictures of the user guide (issue 30): the demo club's screens and dialogs in en, id, es, tr.

    python scripts/screenshots.py [--lang L ...] [--out build/screenshots]

Run under Xvfb at 1366×768 (``scripts/dev.sh screenshots`` starts one); with ``QT_QPA_PLATFORM=offscreen``
it works too. The window is driven in-process and each widget is grabbed (``QWidget.grab``), so a picture
always shows the screen as the code builds it now. Every file the guide shows is in :data:`SHOTS` (plus the
desk card PDF, :data:`FILES`); ``tests/integration/test_guide.py`` fails when a page refers to a file that
is not in these lists. The window of each language opens on a fresh copy of the demo club.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "screenshots"
LANGUAGES = ("en", "id", "es", "tr")
SIZE = (1366, 740)  # a 1366×768 laptop less the title bar

# name -> what it shows (the function of that name below makes it)
SHOTS: dict[str, str] = {
    "members": "Members, the register",
    "member-edit": "the member form",
    "events": "Events, an event selected",
    "desk": "Desk, Entrants",
    "checkin": "Desk, Check-in",
    "rounds": "Rounds, the tables of a round",
    "wizard": "the pairing wizard",
    "entry-gaple": "Rounds, a gaple table open for entry",
    "entry-domino": "Rounds, a domino table open for entry",
    "entry-tavla": "Rounds, a tavla table open for entry",
    "correction": "the correction preview of a confirmed result",
    "standings": "Standings, a row selected",
    "discipline": "Discipline, the match act",
    "reports": "Reports",
    "settings": "Settings, backups and staff accounts",
    "night-settings": "Events, the Night settings tab of a finished season night",
    "prizes-plan": "Standings › Prizes, Plan and preview",
    "prizes-awards": "Standings › Prizes, Awards and payments (one prize paid)",
    "season": "Season, the events, the ranking and the Super Final invitations",
    "ratings": "Ratings, a player's chart and history",
    "crosstable": "Standings › Cross-table",
    "projector": "the projector window, the pairings by name",
    "phones": "Desk › Phones, table entry off",
}
FILES: dict[str, str] = {"deskcard.pdf": "the desk card, the keyboard shortcuts"}


def shown_path() -> str:
    """The demo club's file as a newcomer's window names it (``clubdesk --demo``: the user data folder), with
    the home folder as ``~``: the pictures show that, not the temporary copy the script opens."""
    from platformdirs import user_data_dir

    from clubdesk.paths import APP_NAME

    path = Path(user_data_dir(APP_NAME, appauthor=False)) / "demo.sqlite3"
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except ValueError:  # a data folder outside the home folder: shown as it is
        return str(path)


def names() -> set[str]:
    """Every file name the script makes for each language."""
    return {f"{n}.png" for n in SHOTS} | set(FILES)


class Shooter:
    def __init__(self, window, out: Path) -> None:  # type: ignore[no-untyped-def]
        self.window = window
        self.out = out
        from PySide6.QtWidgets import QApplication

        self.app = QApplication.instance()

    def settle(self) -> None:
        for _ in range(5):
            self.app.processEvents()

    def save(self, name: str, widget=None) -> None:  # type: ignore[no-untyped-def]
        self.settle()
        pixmap = (widget or self.window).grab()
        if not pixmap.save(str(self.out / f"{name}.png")):
            raise SystemExit(f"could not save {name}.png")

    def section(self, key: str):  # type: ignore[no-untyped-def]
        self.window.show_section(key)
        self.settle()
        return self.window.current_page()

    def events_with_rounds(self):  # type: ignore[no-untyped-def]
        from clubdesk.services.events import events as events_events

        rounds = self.section("rounds")
        for ev in events_events.list_events(self.window.state.db, include_finished=True):
            rounds.select_event(ev.id)
            if rounds.round is not None and rounds.round.tables:
                yield ev, rounds

    # ------------------------------------------------------------------------------------------------ shots
    def members(self) -> None:
        self.section("members")
        self.save("members")

    def member_edit(self) -> None:
        from clubdesk.services.members import search
        from clubdesk.ui.members.member_dialog import MemberDialog

        member = search.list_members(self.window.state.db, "")[0]
        dialog = MemberDialog(self.window.state, member, self.window)
        dialog.show()
        self.save("member-edit", dialog)
        dialog.close()

    def events(self) -> None:
        page = self.section("events")
        page.table.selectRow(0)
        self.save("events")

    def _desk(self, tab: int, name: str) -> None:
        page = self.section("desk")
        page.tabs.setCurrentIndex(tab)
        self.save(name)

    def desk(self) -> None:
        self._desk(0, "desk")

    def checkin(self) -> None:
        self._desk(1, "checkin")

    def rounds(self) -> None:
        next(self.events_with_rounds())
        self.save("rounds")

    def wizard(self) -> None:
        from clubdesk.services.events import events as events_events
        from clubdesk.ui.night.pairing_wizard import PairingWizard

        for ev in events_events.list_events(self.window.state.db):
            try:
                wizard = PairingWizard(self.window.state, ev.id, self.window)
            except Exception:  # noqa: BLE001 - an event that cannot pair now
                continue
            wizard.resize(1000, 640)
            wizard.show()
            self.save("wizard", wizard)
            wizard.close()
            return
        raise SystemExit("no event of the demo can pair a round")

    def _entry(self, family: str) -> None:
        from clubdesk.games import load_ruleset

        for ev, rounds in self.events_with_rounds():
            if load_ruleset(ev.ruleset).family != family:
                continue
            if rounds.open_for_entry("SR") is None:
                continue
            self.save(f"entry-{family}")
            return
        raise SystemExit(f"no {family} table in the demo")

    def entry_gaple(self) -> None:
        self._entry("gaple")

    def entry_domino(self) -> None:
        self._entry("domino")

    def entry_tavla(self) -> None:
        self._entry("tavla")

    def correction(self) -> None:
        from clubdesk.services.night.ranking import standings as ranking_standings
        from clubdesk.ui.night.dialogs import CorrectionDialog, preview_lines

        pass

        for ev, rounds in self.events_with_rounds():
            for t in rounds.round.tables:
                if t.status != "confirmed" or t.sides[1] is None or t.score[0] == t.score[1]:
                    continue
                try:
                    pv = ranking_standings.correction_preview(
                        self.window.state.db,
                        ev.id,
                        rounds.round.round,
                        t.table,
                        (t.score[1], t.score[0]),
                        None,
                    )
                except Exception:  # noqa: BLE001 - this table cannot be corrected so: the next
                    continue
                lines = preview_lines(pv, {t.sides[0]: t.names[0], t.sides[1]: t.names[1] or ""})
                dialog = CorrectionDialog(lines, t.locked, self.window)
                dialog.resize(620, dialog.sizeHint().height())
                dialog.show()
                self.save("correction", dialog)
                dialog.close()
                return
        raise SystemExit("no confirmed table to correct in the demo")

    def standings(self) -> None:
        page = self.section("standings")
        target = getattr(page, "view", None)
        if target is not None and target.model() is not None and target.model().rowCount() > 1:
            target.selectRow(2)  # a tied place: the explanation has something to say
        self.save("standings")

    def discipline(self) -> None:
        self.section("discipline")
        self.save("discipline")

    def reports(self) -> None:
        self.section("reports")
        self.save("reports")

    def settings(self) -> None:
        self.section("settings")
        self.save("settings")

    def season_event(self, which: int = -1):  # type: ignore[no-untyped-def]
        """A finished night of the demo season by date (0 the first: its winner is paid, T13e; 1 the round
        robin; -1 the last, the regional cup); each has entrants, a prize plan and its awards."""
        from clubdesk.services import demo
        from clubdesk.services.events import events as events_events

        nights = [
            ev
            for ev in events_events.list_events(self.window.state.db, include_finished=True)
            if ev.name.startswith(demo.SEASON_DEMO_PREFIX)
        ]
        if not nights:
            raise SystemExit("no season night in the demo")
        nights.sort(key=lambda ev: (ev.starts_on is not None, ev.starts_on, ev.id))
        return nights[which]

    def night_settings(self) -> None:
        ev = self.season_event()
        page = self.section("events")
        page.refresh(select=ev.id)
        page.tabs.setCurrentWidget(page.settings)
        self.save("night-settings")
        page.tabs.setCurrentWidget(page.editor)

    def _prizes(self, inner: int, name: str) -> None:
        page = self.section("standings")
        page.select_event(self.season_event(0).id)
        page.tabs.setCurrentWidget(page.prizes)
        page.prizes.inner.setCurrentIndex(inner)
        if inner == 1:
            page.prizes.select_place(1)  # the paid prize: its payment shows
        self.save(name)
        page.prizes.inner.setCurrentIndex(0)
        page.tabs.setCurrentIndex(0)

    def prizes_plan(self) -> None:
        self._prizes(0, "prizes-plan")

    def prizes_awards(self) -> None:
        self._prizes(1, "prizes-awards")

    def season(self) -> None:
        self.section("season")
        self.save("season")

    def ratings(self) -> None:
        page = self.section("ratings")
        # the player with the longest history in ClubDesk: the chart and the history beside the list
        best = max(page.ratings, key=lambda p: (p.rated, p.rating))
        page.select_number(best.number)
        self.save("ratings")

    def crosstable(self) -> None:
        page = self.section("standings")
        page.select_event(self.season_event(1).id)  # the round robin: every round of every player
        page.tabs.setCurrentWidget(page.crosstable)
        self.save("crosstable")
        page.tabs.setCurrentIndex(0)

    def projector(self) -> None:
        from PySide6.QtCore import QCoreApplication, QEvent

        from clubdesk.ui.publishing.projector import ProjectorWindow

        # the event whose present round has the most tables: a full page of names
        ev = max(((len(r.round.tables), e.id, e) for e, r in self.events_with_rounds()))[2]
        projector = ProjectorWindow(self.window.state, self.window)
        projector.resize(*SIZE)
        projector.show()
        projector.set_event(ev.id)
        projector.set_only("names")
        self.save("projector", projector)
        projector.close()
        # its timers and the next language's LanguageChange read the database: delete it now, while the demo
        # copy still exists
        for timer in (projector.cycle, projector.poll, projector.tick, projector._soon):
            timer.stop()
        projector.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)

    def phones(self) -> None:
        page = self.section("desk")
        page.tabs.setCurrentWidget(page.phones_view)  # table entry off: no server is started
        self.save("phones")
        page.tabs.setCurrentIndex(0)

    def desk_card(self) -> None:
        from clubdesk.ui.shell.keymap import write_card

        self.window.show_section("members")
        write_card(self.window, self.out / "deskcard.pdf")


def shoot(lang: str, demo_file: Path, out: Path, only: set[str] | None = None) -> None:
    from PySide6.QtWidgets import QApplication

    from clubdesk import i18n
    from clubdesk.services.club import safety
    from clubdesk.services.club import settings as club_settings
    from clubdesk.storage import Database
    from clubdesk.ui.shell.main_window import MainWindow
    from clubdesk.ui.shell.qt_i18n import install_qt_translator
    from clubdesk.ui.shell.state import DeskState

    app = QApplication.instance() or QApplication(sys.argv[:1])
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="clubdesk-shots-") as tmp:
        path = Path(tmp) / "demo.sqlite3"
        shutil.copy(demo_file, path)
        shown = shown_path()

        class DemoDatabase(Database):
            """The copy, named in the status bar and in Settings as the demo club's own file."""

            @property
            def location(self) -> str:
                return shown

        db = DemoDatabase(path)
        try:
            state = DeskState(db)
            # the club's language is the window's (Settings shows it), and Backups lists one backup
            club_settings.put(db, state.actor, club_settings.LANGUAGE, lang, audited=False)
            safety.backup(db, state.actor)
            i18n.set_language(lang)
            install_qt_translator(app, lang)
            window = MainWindow(state)
            window.resize(*SIZE)
            window.show()
            shooter = Shooter(window, out)
            shooter.settle()
            steps: list[tuple[str, Callable[[], None]]] = [
                (n, getattr(shooter, n.replace("-", "_"))) for n in SHOTS
            ]
            steps.append(("deskcard.pdf", shooter.desk_card))
            for name, step in steps:
                if only and name not in only:
                    continue
                step()
            window.close()
        finally:
            db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", action="append", choices=LANGUAGES)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--only", action="append", help="only this picture (a name of SHOTS)")
    args = parser.parse_args(argv)
    from clubdesk.services import demo
    from clubdesk.storage import Database

    with tempfile.TemporaryDirectory(prefix="clubdesk-demo-") as tmp:
        demo_file = Path(tmp) / "demo.sqlite3"
        db = Database(demo_file)
        demo.fill_demo(db)
        db.close()
        for lang in args.lang or LANGUAGES:
            shoot(lang, demo_file, args.out / lang, set(args.only) if args.only else None)
            print(f"{args.out / lang}: {len(list((args.out / lang).iterdir()))} files")
    return 0


if __name__ == "__main__":
    code = main()
    # every picture is written: leave without the interpreter's finalization, where PySide6 6.12 can abort
    # ("Fatal Python error: bool_dealloc" while collecting Qt objects), failing the installer's build
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
