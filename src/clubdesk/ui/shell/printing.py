"""Building, saving, printing and previewing a report from a screen, shared by the Reports screen and the
pairing wizard's last page.

Every document is built in a ``QThreadPool`` worker (:class:`ReportJob`) that reports progress through
signals; widgets are touched only on the GUI thread (:class:`ReportRunner`'s slots).

Printing and preview. PySide6-Essentials has no QtPdf, so a PDF cannot be drawn by Qt itself. When
``pdftoppm`` (poppler) is installed, the worker renders the pages to images (200 dpi for the printer, 60 dpi
for the preview) and the GUI thread paints them with ``QtPrintSupport`` (QPrinter + QPrintDialog) or shows
them in a preview. Without ``pdftoppm`` the finished PDF is handed to the system viewer with
``QDesktopServices.openUrl``, which prints and previews it.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QImage, QPainter
from PySide6.QtWidgets import QAbstractButton, QLabel, QProgressBar, QWidget

from clubdesk.i18n import _, ngettext
from clubdesk.services import publishing
from clubdesk.services.kernel import ServiceError
from clubdesk.storage import Database

PREVIEW_DPI = 60
PRINT_DPI = 200

SAVE, PRINT, PREVIEW = "save", "print", "preview"


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
        request: publishing.ReportRequest,
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
            pages = publishing.generate(self.db, self.request, self.out, progress=self.signals.progress.emit)
            images = None
            if self.render_dpi is not None:
                folder = Path(tempfile.mkdtemp(prefix="clubdesk-pages-"))
                found = render_pages(self.out, self.render_dpi, folder)
                images = None if found is None else tuple(found)
        except Exception as exc:  # noqa: BLE001 - shown on the GUI thread
            self.signals.failed.emit(exc)
            return
        self.signals.finished.emit(JobResult(self.out, pages, images))


def suggested_name(req: publishing.ReportRequest) -> str:
    """The file name offered in the save dialog: ``pairings-3-r2.pdf``."""
    return f"{req.kind}-{req.event_id}" + (f"-r{req.round}" if req.round else "") + ".pdf"


def pdf_path(chosen: str) -> Path | None:
    """The file picked in a save dialog, ``.pdf`` added when the name has none; None when cancelled."""
    if not chosen:
        return None
    return Path(chosen if chosen.lower().endswith(".pdf") else chosen + ".pdf")


def temp_pdf(req: publishing.ReportRequest) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="clubdesk-report-"))
    return folder / f"{req.kind}-{req.event_id}.pdf"


def failure_text(exc: BaseException) -> str:
    if isinstance(exc, ServiceError):
        return exc.message
    if isinstance(exc, OSError):
        return _("Cannot write the file: {reason}").format(reason=exc.strerror or exc)
    return _("The report could not be built: {reason}").format(reason=exc)


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


def open_in_viewer(result: JobResult) -> str:
    """Hand the PDF to the system's viewer (no ``pdftoppm`` to render it here); the message to show."""
    QDesktopServices.openUrl(QUrl.fromLocalFile(str(result.pdf)))
    return _("The preview opened in the system's PDF viewer.")


def print_result(parent: QWidget, result: JobResult) -> str:
    """Ask for a printer and print the rendered pages (or hand the PDF to the system viewer); the message
    to show."""
    if result.images is None:  # no pdftoppm: the system viewer prints it
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(result.pdf)))
        return _("The report opened in the system's PDF viewer; print it from there.")
    from PySide6.QtPrintSupport import QPrintDialog, QPrinter

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    dialog = QPrintDialog(printer, parent)
    if dialog.exec() != QPrintDialog.DialogCode.Accepted:
        return _("Printing cancelled.")
    paint_pages(printer, result.images)
    return ngettext("Sent {n} page to the printer.", "Sent {n} pages to the printer.", result.pages).format(
        n=result.pages
    )


class ReportRunner(QObject):
    """One report at a time for a screen: builds it in the pool, drives the screen's progress bar and message
    line, disables its buttons meanwhile, then saves, prints or previews. ``done`` carries the
    :class:`JobResult` once the file is written and the action taken; ``busy_changed`` tells when a job
    starts and ends."""

    done = Signal(object)
    busy_changed = Signal(bool)

    def __init__(
        self,
        db: Database,
        parent: QWidget,
        progress: QProgressBar,
        message: QLabel,
        buttons: Sequence[QAbstractButton],
        on_preview: Callable[[JobResult], str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.db = db
        self.screen = parent
        self.progress = progress
        self.message = message
        self.buttons = list(buttons)
        self.on_preview = on_preview
        self.pool = QThreadPool.globalInstance()
        self.job: ReportJob | None = None
        self.after = SAVE
        self.last_result: JobResult | None = None

    @property
    def busy(self) -> bool:
        return self.job is not None

    def save(self, req: publishing.ReportRequest, chosen: str) -> None:
        """Build ``req`` into the file picked in a save dialog (nothing when the dialog was cancelled)."""
        out = pdf_path(chosen)
        if out is not None:
            self.start(req, out, SAVE)

    def save_as(
        self,
        parent: QWidget,
        req: publishing.ReportRequest,
        chosen: str | None = None,
        name: str | None = None,
    ) -> None:
        """ "Save as PDF…": the file asked for (``name`` or the request's own suggested), then built there;
        ``chosen`` skips the dialog (tests, a path given)."""
        from PySide6.QtWidgets import QFileDialog

        if not chosen:
            chosen, _filter = QFileDialog.getSaveFileName(
                parent, _("Save as PDF"), name or suggested_name(req), _("PDF files (*.pdf)")
            )
        self.save(req, chosen)

    def print(self, req: publishing.ReportRequest) -> None:
        self.start(req, temp_pdf(req), PRINT, PRINT_DPI)

    def preview(self, req: publishing.ReportRequest) -> None:
        self.start(req, temp_pdf(req), PREVIEW, PREVIEW_DPI)

    def start(
        self, req: publishing.ReportRequest, out: Path, after: str, render_dpi: int | None = None
    ) -> None:
        if self.job is not None:
            self.message.setText(_("A report is still being built."))
            return
        self.after = after
        self.progress.setValue(0)
        self.message.setText(_("Building the report…"))
        self._set_busy(True)
        job = ReportJob(self.db, req, out, render_dpi)
        job.setAutoDelete(False)  # we keep it (and its signals) until it reports back
        job.signals.progress.connect(self._on_progress)
        job.signals.finished.connect(self._on_done)
        job.signals.failed.connect(self._on_failed)
        self.job = job
        self.pool.start(job)

    def _set_busy(self, busy: bool) -> None:
        for b in self.buttons:
            b.setEnabled(not busy)
        self.busy_changed.emit(busy)

    @Slot(int, int)
    def _on_progress(self, done: int, total: int) -> None:
        if total > 0:
            self.progress.setValue(min(100, round(100 * done / total)))

    @Slot(object)
    def _on_done(self, result: JobResult) -> None:
        self.job = None
        self._set_busy(False)
        self.progress.setValue(100)
        self.last_result = result
        if self.after == SAVE:
            text = ngettext("Saved {file} ({n} page).", "Saved {file} ({n} pages).", result.pages).format(
                file=result.pdf, n=result.pages
            )
        elif self.after == PREVIEW:
            text = (self.on_preview or open_in_viewer)(result)
        else:
            text = print_result(self.screen, result)
        self.message.setText(text)
        self.done.emit(result)

    @Slot(object)
    def _on_failed(self, exc: BaseException) -> None:
        self.job = None
        self._set_busy(False)
        self.progress.setValue(0)
        self.message.setText(failure_text(exc))
