"""The "Share…" dialog, one for every screen that shares: the images of an event's pairings, standings,
bracket, cross-table, season ranking or prize list, drawn by ``services.publishing.share`` into a folder of
the user's data folder; then copy an image to the clipboard (to paste into the club's chat), save the images
elsewhere, or open their folder.

:func:`share_button` makes the button a screen adds; it asks its screen for (event, round) when clicked.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication, QImage, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clubdesk import paths
from clubdesk.i18n import LANGUAGE_NAMES, _, ngettext
from clubdesk.services import club, publishing
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.state import DeskState


class ShareDialog(QDialog):
    def __init__(
        self,
        state: DeskState,
        event_id: int,
        kind: str = "standings",
        round_no: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("shareDialog")
        self.setWindowTitle(_("Share"))
        self.state = state
        self.event_id = event_id
        self.round_no = round_no
        self.files: list[Path] = []
        self.folder = paths.data_dir() / "share"
        self.kind = QComboBox()
        self.kind.setObjectName("shareKind")
        for k in publishing.SHARE_KINDS:
            self.kind.addItem(_(publishing.SHARE_KIND_LABELS[k]), k)
        self.kind.setCurrentIndex(max(0, self.kind.findData(kind)))
        self.language = QComboBox()
        for code, name in LANGUAGE_NAMES.items():
            self.language.addItem(name, code)
        lang = club.club_settings(state.db).language
        self.language.setCurrentIndex(max(0, self.language.findData(lang)))
        self.list = QListWidget()
        self.list.setObjectName("shareFiles")
        self.preview = QLabel()
        self.preview.setObjectName("sharePreview")
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setMinimumSize(300, 360)
        self.message = QLabel()
        self.message.setObjectName("shareMessage")
        self.message.setWordWrap(True)
        self.copy_button = QPushButton(_("Copy image"))
        self.copy_button.setObjectName("shareCopy")
        self.save_button = QPushButton(_("Save images…"))
        self.open_button = QPushButton(_("Open folder"))
        close = QPushButton(_("Close"))
        form = QFormLayout()
        form.addRow(_("What to share"), self.kind)
        form.addRow(_("Language"), self.language)
        buttons = QHBoxLayout()
        for b in (self.copy_button, self.save_button, self.open_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(close)
        body = QHBoxLayout()
        body.addWidget(self.list, 1)
        body.addWidget(self.preview, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(body, 1)
        layout.addWidget(self.message)
        layout.addLayout(buttons)
        self.kind.currentIndexChanged.connect(lambda _i: self.make())
        self.language.currentIndexChanged.connect(lambda _i: self.make())
        self.list.currentRowChanged.connect(self._show)
        self.copy_button.clicked.connect(self.copy_image)
        self.save_button.clicked.connect(self.save_images)
        self.open_button.clicked.connect(self.open_folder)
        close.clicked.connect(self.accept)
        self.make()

    def make(self) -> None:
        """Draw the images of the chosen kind into the share folder (a refusal says why, in one line)."""
        kind = str(self.kind.currentData())
        self.files = []
        self.list.clear()
        self.preview.clear()
        try:
            self.files = publishing.share_images(
                self.state.db,
                kind,
                self.event_id,
                self.folder,
                round_no=self.round_no if kind == "pairings" else None,
                language=str(self.language.currentData()),
            )
        except ServiceError as exc:
            self.message.setText(str(exc))
        else:
            n = len(self.files)
            self.message.setText(ngettext("{n} image ready.", "{n} images ready.", n).format(n=n))
            for f in self.files:
                self.list.addItem(f.name)
            self.list.setCurrentRow(0)
        for b in (self.copy_button, self.save_button):
            b.setEnabled(bool(self.files))

    def _show(self, row: int) -> None:
        if 0 <= row < len(self.files):
            pix = QPixmap(str(self.files[row]))
            self.preview.setPixmap(
                pix.scaled(
                    360, 450, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
                )
            )

    def copy_image(self) -> None:
        """The selected image on the clipboard, ready to paste into a chat."""
        row = max(0, self.list.currentRow())
        if row < len(self.files):
            QGuiApplication.clipboard().setImage(QImage(str(self.files[row])))
            self.message.setText(_("Image copied: paste it into the chat."))

    def save_images(self, folder: str | None = None) -> None:
        target = folder or QFileDialog.getExistingDirectory(self, _("Save images"))
        if not target:
            return
        try:
            for f in self.files:
                shutil.copy2(f, Path(target) / f.name)
        except OSError as exc:
            self.message.setText(
                _("Cannot write into the folder {path}: {error}").format(
                    path=target, error=exc.strerror or exc
                )
            )
            return
        self.message.setText(_("Images saved in {path}.").format(path=target))

    def open_folder(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.folder)))


def share_button(
    state: DeskState, parent: QWidget, target: Callable[[], tuple[int | None, int | None, str]]
) -> QPushButton:
    """The "Share…" button of a screen; ``target()`` says (event, round, kind) when it is clicked."""
    button = QPushButton(_("Share…"))
    button.setObjectName("shareButton")

    def clicked() -> None:
        event, round_no, kind = target()
        if event is None:
            return
        ShareDialog(state, event, kind, round_no, parent).exec()

    button.clicked.connect(clicked)
    return button
