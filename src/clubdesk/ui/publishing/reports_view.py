"""Reports: pick an event, a kind, the round and table, language and paper; Save as PDF, Print, Preview.

Every document is built in a ``QThreadPool`` worker; building, saving, printing and the preview's rendering
are in :mod:`clubdesk.ui.shell.printing` (shared with the pairing wizard's last page). "All score sheets of
round N" is the score-sheet kind with the table left at "all tables".
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import LANGUAGE_NAMES, _, ngettext
from clubdesk.services import club, events, publishing
from clubdesk.services.kernel import Changes
from clubdesk.ui.shell.printing import JobResult, ReportRunner, open_in_viewer
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.event_choice import EventChoice


class ReportsSection(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.last_result: JobResult | None = None

        title = QLabel(_("Reports"))
        title.setStyleSheet("font-size: 16pt; font-weight: 600;")
        self.event_box = EventChoice(state, "reportEvent")  # the window's event in use
        self.kind = QComboBox()
        self.kind.setObjectName("reportKind")
        for kind in publishing.KINDS:
            self.kind.addItem(_(publishing.KIND_LABELS[kind]), kind)
        self.round = QSpinBox()
        self.round.setRange(0, 99)
        self.round.setSpecialValueText(_("latest"))
        self.table = QSpinBox()
        self.table.setRange(0, 999)
        self.table.setSpecialValueText(_("all tables"))
        self.language = QComboBox()
        for code, name in LANGUAGE_NAMES.items():
            self.language.addItem(name, code)
        app_lang = club.club_settings(state.db).language
        self.language.setCurrentIndex(max(0, self.language.findData(app_lang)))
        self.paper = QComboBox()
        self.paper.addItem("A4", "a4")
        self.paper.addItem(_("Letter"), "letter")  # the US paper size
        form = QFormLayout()
        form.addRow(_("Event"), self.event_box)
        form.addRow(_("Report"), self.kind)
        form.addRow(_("Round"), self.round)
        form.addRow(_("Table"), self.table)
        form.addRow(_("Language"), self.language)
        form.addRow(_("Paper"), self.paper)

        self.save_button = QPushButton(_("Save as PDF…"))
        self.save_button.setObjectName("savePdf")
        self.print_button = QPushButton(_("Print…"))
        self.preview_button = QPushButton(_("Preview"))
        self.save_button.clicked.connect(self.save_pdf)
        self.print_button.clicked.connect(self.print_report)
        self.preview_button.clicked.connect(self.preview)
        buttons = QHBoxLayout()
        for b in (self.save_button, self.print_button, self.preview_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.preview_pages = QWidget()
        self.preview_layout = QVBoxLayout(self.preview_pages)
        self.preview_layout.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.preview_pages)

        left = QWidget()
        left.setMaximumWidth(420)
        col = QVBoxLayout(left)
        col.addWidget(title)
        col.addLayout(form)
        col.addLayout(buttons)
        col.addWidget(self.progress)
        col.addWidget(self.message)
        col.addStretch(1)
        layout = QHBoxLayout(self)
        layout.addWidget(left)
        layout.addWidget(scroll, 1)
        self.runner = ReportRunner(
            state.db,
            self,
            self.progress,
            self.message,
            (self.save_button, self.print_button, self.preview_button),
            on_preview=self.show_preview,
        )
        self.runner.done.connect(self._on_done)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.event_box.currentIndexChanged.connect(lambda _i: self._event_language())
        # the preview always shows the document chosen now: any change of a choice builds it again
        self.previewed: publishing.ReportRequest | None = None  # what the preview pane shows or will show
        for box in (self.kind, self.event_box, self.language, self.paper):
            box.currentIndexChanged.connect(lambda _i: self._choices_changed())
        for spin in (self.round, self.table):
            spin.valueChanged.connect(lambda _v: self._choices_changed())
        self.state.dataChanged.connect(self._data_changed)
        self.state.changed.connect(self._changes)
        self.reload_events()
        self._kind_changed()

    def _data_changed(self, _name: str) -> None:
        self.reload_events()

    def _changes(self, changes: Changes, _origin: object) -> None:
        if changes.event:  # the events listed (an event started or finished)
            self.reload_events()

    # ------------------------------------------------------------------------------------------ choices
    def reload_events(self) -> None:
        """The club's events in the shared order, on the window's event in use (kept across a language
        switch: the window's state holds it)."""
        self.event_box.reload()
        self._event_language()

    def _event_language(self) -> None:
        """A report prints in its event's language (Events), else the club's: never the window's."""
        event_id = self.event_box.currentData()
        lang = events.event_language(self.state.db, int(event_id)) if event_id is not None else None
        lang = lang or club.club_settings(self.state.db).language
        self.language.setCurrentIndex(max(0, self.language.findData(lang)))

    def _kind_changed(self) -> None:
        kind = self.kind.currentData()
        self.round.setEnabled(kind in ("score-sheets", "pairings", "incident-act"))
        self.table.setEnabled(kind in ("score-sheets", "incident-act"))

    def request(self) -> publishing.ReportRequest | None:
        event_id = self.event_box.currentData()
        if event_id is None:
            self.message.setText(_("Create an event first."))
            return None
        kind = str(self.kind.currentData())
        return publishing.ReportRequest(
            kind=kind,
            event_id=int(event_id),
            round=self.round.value() or None if self.round.isEnabled() else None,
            table=self.table.value() or None if self.table.isEnabled() else None,
            language=str(self.language.currentData()),
            paper=str(self.paper.currentData()),
        )

    # ------------------------------------------------------------------------------------------ actions
    @Slot()
    def save_pdf(self) -> None:
        req = self.request()
        if req is not None:
            self.runner.save_as(self, req)

    @Slot()
    def print_report(self) -> None:
        req = self.request()
        if req is not None:
            self.runner.print(req)

    @Slot()
    def preview(self) -> None:
        req = self.request()
        if req is not None:
            self.previewed = req
            self.runner.preview(req)

    def _choices_changed(self) -> None:
        """A preview of other choices is never left on screen: it is cleared and built for the new ones."""
        if self.previewed is None:
            return
        self.clear_preview()
        if self.runner.job is None:  # else the document being built is replaced when it is done
            self.preview()

    @Slot(object)
    def _on_done(self, result: JobResult) -> None:
        self.last_result = result
        if self.previewed is not None and self.previewed != self.request() and self.runner.job is None:
            self.clear_preview()  # built for choices changed meanwhile: build the one chosen now
            self.preview()

    # ------------------------------------------------------------------------------------------ output
    def clear_preview(self) -> None:
        while self.preview_layout.count():
            item = self.preview_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()

    def show_preview(self, result: JobResult) -> str:
        """Show the rendered pages in the preview pane; the message to show."""
        self.clear_preview()
        if self.previewed is not None and self.previewed != self.request():
            return ""  # choices changed while it was built: the new document follows
        if result.images is None:  # no pdftoppm: the system viewer shows it
            return open_in_viewer(result)
        for png in result.images:
            label = QLabel()
            label.setPixmap(QPixmap(str(png)))
            label.setStyleSheet(themed("border: 1px solid #888; background: white;"))
            self.preview_layout.addWidget(label)
        return ngettext("Preview: {n} page.", "Preview: {n} pages.", result.pages).format(n=result.pages)
