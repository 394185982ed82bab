"""The pairing wizard's last pages: publish with the table call time, then print the pairings and all score
sheets of the round or save them as PDF (the Reports screen's worker and printing, ``ui/shell/printing.py``).
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QDateTime
from PySide6.QtWidgets import (
    QCheckBox,
    QDateTimeEdit,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWizard,
    QWizardPage,
)

from clubdesk.competition.table_call import default_call_at
from clubdesk.i18n import _, ngettext
from clubdesk.services import publishing
from clubdesk.ui.night.entry_params import night_settings
from clubdesk.ui.night.wizard_host import WizardHost
from clubdesk.ui.shell.printing import ReportRunner, suggested_name
from clubdesk.ui.shell.theme import themed


class PublishPage(QWizardPage):
    def __init__(self, wizard: WizardHost) -> None:
        super().__init__()
        self.w = wizard
        self.setTitle(_("Publish"))
        self.setSubTitle(
            _("The round becomes official; the earlier round's confirmed results are locked (T10).")
        )
        self.call_at = QDateTimeEdit(QDateTime.currentDateTime())
        self.call_at.setObjectName("callAt")
        self.call_at.setDisplayFormat("yyyy-MM-dd HH:mm")
        # rule G15: the match start, besides the call (gaple: present 10 minutes before it)
        self.has_start = QCheckBox(_("Matches start at (G15)"))
        self.has_start.setObjectName("hasStart")
        self.start_at = QDateTimeEdit(QDateTime.currentDateTime())
        self.start_at.setObjectName("startAt")
        self.start_at.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.start_at.setEnabled(False)
        self.has_start.toggled.connect(self.start_at.setEnabled)
        self.reason = QLineEdit()
        self.reason.setObjectName("forceReason")
        self.reason.setPlaceholderText(_("only to force a rematch: the referee's reason"))
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.message = QLabel()
        self.message.setObjectName("publishMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(themed("color: #b00020;"))
        form = QFormLayout()
        form.addRow(_("Table call at (T3b)"), self.call_at)
        form.addRow(self.has_start, self.start_at)
        form.addRow(_("Referee's reason"), self.reason)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(self.message)
        layout.addStretch(1)
        # publishing cannot be undone: no way back from the print page
        self.setCommitPage(True)
        self.setButtonText(QWizard.WizardButton.CommitButton, _("&Publish"))

    def initializePage(self) -> None:  # noqa: N802
        # the table call defaults to now (when this page opens, not when the wizard opened) plus the night's
        # call notice: the sides get their waiting time before a forfeit is possible (T3b, G15)
        minutes = int(night_settings(self.w.state, self.w.event_id).get("call_minutes", 10))
        now = QDateTime.currentDateTime().toPython()
        assert isinstance(now, datetime)
        self.call_at.setDateTime(QDateTime(default_call_at(now.replace(second=0, microsecond=0), minutes)))
        rv = self.w.proposed
        n = len(rv.tables) if rv else 0
        self.summary.setText(
            ngettext(
                "Round {r}: {n} table. Publish makes it official.",
                "Round {r}: {n} tables. Publish makes it official.",
                n,
            ).format(r=rv.round if rv else "?", n=n)
        )

    def validatePage(self) -> bool:  # noqa: N802
        if self.w.stale():
            self.message.setText(
                _("The attendance changed after this round was proposed: go back and pair it again.")
            )
            return False
        when = self.call_at.dateTime().toPython()  # a naive local time, as typed
        assert isinstance(when, datetime)
        start = self.start_at.dateTime().toPython() if self.has_start.isChecked() else None
        assert start is None or isinstance(start, datetime)
        ok, message = self.w.publish(when, start)
        self.message.setText(message)
        return ok


class PrintPage(QWizardPage):
    """After publishing: print the pairings for the notice board and all score sheets of the round for the
    tables, or save either as PDF; built in a worker with a progress bar (``ui/shell/printing.py``)."""

    def __init__(self, wizard: WizardHost) -> None:
        super().__init__()
        self.w = wizard
        self.setTitle(_("Print"))
        self.print_pairings_button = QPushButton(_("Print pai&rings"))
        self.print_pairings_button.setObjectName("printPairings")
        self.print_sheets_button = QPushButton()
        self.print_sheets_button.setObjectName("printScoreSheets")
        self.save_pairings_button = QPushButton(_("S&ave pairings as PDF…"))
        self.save_pairings_button.setObjectName("savePairingsPdf")
        self.save_sheets_button = QPushButton(_("Save score s&heets as PDF…"))
        self.save_sheets_button.setObjectName("saveScoreSheetsPdf")
        self.print_pairings_button.clicked.connect(lambda: self.print_report("pairings"))
        self.print_sheets_button.clicked.connect(lambda: self.print_report("score-sheets"))
        self.save_pairings_button.clicked.connect(lambda: self.save_pdf("pairings"))
        self.save_sheets_button.clicked.connect(lambda: self.save_pdf("score-sheets"))
        self.progress = QProgressBar()
        self.progress.setObjectName("printProgress")
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.message = QLabel()
        self.message.setObjectName("printMessage")
        self.message.setWordWrap(True)
        buttons = (
            self.print_pairings_button,
            self.print_sheets_button,
            self.save_pairings_button,
            self.save_sheets_button,
        )
        grid = QGridLayout()  # one row a document: print it, or save it
        for k, b in enumerate(buttons):
            b.setAutoDefault(False)  # Enter stays with Finish unless a button has the focus
            grid.addWidget(b, k % 2, k // 2)
        grid.setColumnStretch(2, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.progress)
        layout.addWidget(self.message)
        layout.addStretch(1)
        self.runner = ReportRunner(wizard.state.db, self, self.progress, self.message, buttons)
        self.runner.busy_changed.connect(lambda _busy: self.completeChanged.emit())
        self.setFinalPage(True)

    def round_no(self) -> int:
        rv = self.w.published
        return rv.round if rv is not None else 0

    def initializePage(self) -> None:  # noqa: N802
        r = self.round_no()
        self.setSubTitle(
            _("Round {r} is published. Print the pairings for the notice board and the score sheets.").format(
                r=r
            )
        )
        self.print_sheets_button.setText(_("Print all &score sheets of round {r}").format(r=r))
        self.print_pairings_button.setFocus()

    def isComplete(self) -> bool:  # noqa: N802
        return not self.runner.busy  # Finish waits for the document being built

    def request(self, kind: str) -> publishing.ReportRequest:
        """All tables of the published round; the app's language, A4 (the Reports screen offers the rest)."""
        return publishing.ReportRequest(kind=kind, event_id=self.w.event_id, round=self.round_no())

    def print_report(self, kind: str) -> None:
        self.runner.print(self.request(kind))

    def save_pdf(self, kind: str) -> None:
        req = self.request(kind)
        path, _filter = QFileDialog.getSaveFileName(
            self, _("Save as PDF"), suggested_name(req), _("PDF files (*.pdf)")
        )
        self.runner.save(req, path)
