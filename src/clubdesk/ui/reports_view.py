"""Reports: pick an event, a kind, the round and table, language and paper; Save as PDF, Print, Preview.

Every document is built in a ``QThreadPool`` worker (:class:`ReportJob`) that reports progress through
signals; widgets are touched only on the GUI thread (the slots below). "All score sheets of round N" is the
score-sheet kind with the table left at "all tables".

Printing and preview. PySide6-Essentials has no QtPdf, so a PDF cannot be drawn by Qt itself. When
``pdftoppm`` (poppler) is installed, the worker renders the pages to images (200 dpi for the printer, 60 dpi
for the preview) and the GUI thread paints them with ``QtPrintSupport`` (QPrinter + QPrintDialog) or shows
them in the preview pane. Without ``pdftoppm`` the finished PDF is handed to the system viewer with
``QDesktopServices.openUrl``, which prints and previews it.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
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

from clubdesk.db import Database
from clubdesk.i18n import _
from clubdesk.services import events as event_service
from clubdesk.services import reports as report_service
from clubdesk.services import settings as settings_service
from clubdesk.services.base import ServiceError
from clubdesk.ui.state import DeskState

LANGUAGE_NAMES = {"en": "English", "id": "Bahasa Indonesia", "es": "Español", "tr": "Türkçe"}
PREVIEW_DPI = 60
PRINT_DPI = 200


def pdftoppm() -> str | None:
    return shutil.which("pdftoppm")


def render_pages(pdf: Path, dpi: int, folder: Path) -> list[Path] | None:
    """The pages of ``pdf`` as PNG files (``pdftoppm``), or None when poppler is not installed."""
    tool = pdftoppm()
    if tool is None:
        return None
    prefix = folder / "page"
    subprocess.run([tool, "-png", "-r", str(dpi), str(pdf), str(prefix)], check=True, capture_output=True)
    return sorted(folder.glob("page*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[-1]))


@dataclass(frozen=True)
class JobResult:
    pdf: Path
    pages: int
    images: tuple[Path, ...] | None  # rendered pages for print or preview; None: no pdftoppm


class JobSignals(QObject):
    progress = Signal(int, int)
    finished = Signal(object)
    failed = Signal(object)


class ReportJob(QRunnable):
    """Build one report off the GUI thread (and render its pages when asked); report through signals."""

    def __init__(
        self,
        db: Database,
        request: report_service.ReportRequest,
        out: Path,
        render_dpi: int | None = None,
    ) -> None:
        super().__init__()
        self.db = db
        self.request = request
        self.out = out
        self.render_dpi = render_dpi
        self.signals = JobSignals()

    def run(self) -> None:
        try:
            pages = report_service.generate(
                self.db, self.request, self.out, progress=self.signals.progress.emit
            )
            images = None
            if self.render_dpi is not None:
                folder = Path(tempfile.mkdtemp(prefix="clubdesk-pages-"))
                found = render_pages(self.out, self.render_dpi, folder)
                images = None if found is None else tuple(found)
        except Exception as exc:  # noqa: BLE001 - shown on the GUI thread
            self.signals.failed.emit(exc)
            return
        self.signals.finished.emit(JobResult(self.out, pages, images))


class ReportsSection(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.pool = QThreadPool.globalInstance()
        self._job: ReportJob | None = None
        self._after: str = "save"
        self.last_result: JobResult | None = None

        title = QLabel(_("Reports"))
        title.setStyleSheet("font-size: 16pt; font-weight: 600;")
        self.event_box = QComboBox()
        self.event_box.setObjectName("reportEvent")
        self.kind = QComboBox()
        self.kind.setObjectName("reportKind")
        for kind in report_service.KINDS:
            self.kind.addItem(_(report_service.KIND_LABELS[kind]), kind)
        self.round = QSpinBox()
        self.round.setRange(0, 99)
        self.round.setSpecialValueText(_("latest"))
        self.table = QSpinBox()
        self.table.setRange(0, 999)
        self.table.setSpecialValueText(_("all tables"))
        self.language = QComboBox()
        for code, name in LANGUAGE_NAMES.items():
            self.language.addItem(name, code)
        app_lang = settings_service.club_settings(state.db).language
        self.language.setCurrentIndex(max(0, self.language.findData(app_lang)))
        self.paper = QComboBox()
        self.paper.addItem("A4", "a4")
        self.paper.addItem("Letter", "letter")
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
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.state.dataChanged.connect(lambda _name: self.reload_events())
        self.reload_events()
        self._kind_changed()

    # ------------------------------------------------------------------------------------------ choices
    def reload_events(self) -> None:
        current = self.event_box.currentData()
        self.event_box.clear()
        for ev in event_service.list_events(self.state.db):
            self.event_box.addItem(f"{ev.name} ({ev.id})", ev.id)
        if current is not None:
            self.event_box.setCurrentIndex(max(0, self.event_box.findData(current)))

    def _kind_changed(self) -> None:
        kind = self.kind.currentData()
        self.round.setEnabled(kind in ("score-sheets", "pairings", "incident-act"))
        self.table.setEnabled(kind in ("score-sheets", "incident-act"))

    def request(self) -> report_service.ReportRequest | None:
        event_id = self.event_box.currentData()
        if event_id is None:
            self.message.setText(_("Create an event first."))
            return None
        kind = str(self.kind.currentData())
        return report_service.ReportRequest(
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
        if req is None:
            return
        suggested = f"{req.kind}-{req.event_id}" + (f"-r{req.round}" if req.round else "") + ".pdf"
        path, _filter = QFileDialog.getSaveFileName(self, _("Save as PDF"), suggested, _("PDF files (*.pdf)"))
        if not path:
            return
        if not path.lower().endswith(".pdf"):
            path += ".pdf"
        self.start(req, Path(path), "save")

    @Slot()
    def print_report(self) -> None:
        req = self.request()
        if req is not None:
            self.start(req, self._temp_pdf(req), "print", PRINT_DPI)

    @Slot()
    def preview(self) -> None:
        req = self.request()
        if req is not None:
            self.start(req, self._temp_pdf(req), "preview", PREVIEW_DPI)

    def _temp_pdf(self, req: report_service.ReportRequest) -> Path:
        folder = Path(tempfile.mkdtemp(prefix="clubdesk-report-"))
        return folder / f"{req.kind}-{req.event_id}.pdf"

    def start(
        self, req: report_service.ReportRequest, out: Path, after: str, render_dpi: int | None = None
    ) -> None:
        if self._job is not None:
            self.message.setText(_("A report is still being built."))
            return
        self._after = after
        self.progress.setValue(0)
        self.message.setText(_("Building the report…"))
        self._set_busy(True)
        job = ReportJob(self.state.db, req, out, render_dpi)
        job.setAutoDelete(False)  # we keep it (and its signals) until it reports back
        job.signals.progress.connect(self._on_progress)
        job.signals.finished.connect(self._on_done)
        job.signals.failed.connect(self._on_failed)
        self._job = job
        self.pool.start(job)

    def _set_busy(self, busy: bool) -> None:
        for b in (self.save_button, self.print_button, self.preview_button):
            b.setEnabled(not busy)

    @Slot(int, int)
    def _on_progress(self, done: int, total: int) -> None:
        if total > 0:
            self.progress.setValue(min(100, round(100 * done / total)))

    @Slot(object)
    def _on_done(self, result: JobResult) -> None:
        self._job = None
        self._set_busy(False)
        self.progress.setValue(100)
        self.last_result = result
        if self._after == "save":
            self.message.setText(_("Saved {file} ({n} pages).").format(file=result.pdf, n=result.pages))
        elif self._after == "preview":
            self.show_preview(result)
        else:
            self.print_pages(result)

    @Slot(object)
    def _on_failed(self, exc: BaseException) -> None:
        self._job = None
        self._set_busy(False)
        self.progress.setValue(0)
        if isinstance(exc, ServiceError):
            self.message.setText(exc.message)
        elif isinstance(exc, OSError):
            self.message.setText(_("Cannot write the file: {reason}").format(reason=exc.strerror or exc))
        else:
            self.message.setText(_("The report could not be built: {reason}").format(reason=exc))

    # ------------------------------------------------------------------------------------------ output
    def clear_preview(self) -> None:
        while self.preview_layout.count():
            item = self.preview_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()

    def show_preview(self, result: JobResult) -> None:
        self.clear_preview()
        if result.images is None:  # no pdftoppm: the system viewer shows it
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(result.pdf)))
            self.message.setText(_("The preview opened in the system's PDF viewer."))
            return
        for png in result.images:
            label = QLabel()
            label.setPixmap(QPixmap(str(png)))
            label.setStyleSheet("border: 1px solid #888; background: white;")
            self.preview_layout.addWidget(label)
        self.message.setText(_("Preview: {n} pages.").format(n=result.pages))

    def print_pages(self, result: JobResult) -> None:
        if result.images is None:  # no pdftoppm: the system viewer prints it
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(result.pdf)))
            self.message.setText(_("The report opened in the system's PDF viewer; print it from there."))
            return
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dialog = QPrintDialog(printer, self)
        if dialog.exec() != QPrintDialog.DialogCode.Accepted:
            self.message.setText(_("Printing cancelled."))
            return
        paint_pages(printer, result.images)
        self.message.setText(_("Sent {n} pages to the printer.").format(n=result.pages))


def paint_pages(printer: Any, images: tuple[Path, ...]) -> None:
    """Paint rendered pages on a QPrinter (or any paint device with ``newPage``), one image a page."""
    painter = QPainter(printer)
    try:
        for k, png in enumerate(images):
            if k:
                printer.newPage()
            image = QImage(str(png))
            area = painter.viewport()
            size = image.size().scaled(area.size(), Qt.AspectRatioMode.KeepAspectRatio)
            painter.setViewport(area.x(), area.y(), size.width(), size.height())
            painter.setWindow(image.rect())
            painter.drawImage(0, 0, image)
            painter.setViewport(area)
    finally:
        painter.end()
