"""Where ClubDesk keeps its data: ``CLUBDESK_HOME``, else the portable folder, else the user data dir.

- ``CLUBDESK_HOME=/some/folder`` wins over everything.
- **Portable mode** (a USB stick at the tournament hall): a file ``portable.txt`` beside the program (the
  folder holding ``clubdesk``/``clubdesk.exe`` of the installer's bundle) makes ClubDesk keep its data folder
  beside itself, in ``ClubDesk-data/``. The file may be empty; its first line that is not blank or a ``#``
  comment may name another folder, relative to the program's folder.
- Otherwise the platformdirs user data dir (``~/.local/share/ClubDesk``, ``%LOCALAPPDATA%\\ClubDesk``).

Nothing else is ever written next to the program. ``--db PATH`` (CLI and GUI) overrides the database file.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path

from platformdirs import user_data_dir

APP_NAME = "ClubDesk"
PORTABLE_MARKER = "portable.txt"
PORTABLE_FOLDER = "ClubDesk-data"


def program_dir() -> Path | None:
    """The folder of the running program when it is the installer's bundle (PyInstaller sets ``sys.frozen``);
    None when ClubDesk runs from Python (a checkout or a pip install), which has no portable mode."""
    if not getattr(sys, "frozen", False):
        return None
    return Path(sys.executable).resolve().parent


def portable_home(folder: Path | None = None) -> Path | None:
    """The data folder beside the program when ``portable.txt`` is there, else None.

    ``folder`` is the program's folder (default: :func:`program_dir`)."""
    folder = folder if folder is not None else program_dir()
    if folder is None:
        return None
    marker = folder / PORTABLE_MARKER
    if not marker.is_file():
        return None
    name = PORTABLE_FOLDER
    try:
        for line in marker.read_text(encoding="utf-8-sig", errors="replace").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                name = line
                break
    except OSError:
        pass
    return folder / Path(name).expanduser()


def data_dir() -> Path:
    """The folder holding the database, backups and logs (created on first use)."""
    home = os.environ.get("CLUBDESK_HOME")
    if home:
        path = Path(home).expanduser()
    else:
        path = portable_home() or Path(user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_db_path() -> Path:
    return data_dir() / "clubdesk.sqlite3"


def demo_db_path() -> Path:
    """The demo club lives in its own file, never mixed with the real club's data."""
    return data_dir() / "demo.sqlite3"


def backups_dir() -> Path:
    path = data_dir() / "backups"
    path.mkdir(parents=True, exist_ok=True)
    return path


def logs_dir() -> Path:
    path = data_dir() / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def resources_dir() -> Path:
    return Path(__file__).resolve().parent / "resources"


_logging_ready = False


def setup_logging(level: int = logging.INFO) -> Path:
    """Log to a rotating file in the data dir (1 MB x 5 files)."""
    global _logging_ready
    log_file = logs_dir() / "clubdesk.log"
    if not _logging_ready:
        handler = logging.handlers.RotatingFileHandler(
            log_file, maxBytes=1_000_000, backupCount=5, encoding="utf-8"
        )
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root = logging.getLogger("clubdesk")
        root.addHandler(handler)
        root.setLevel(level)
        _logging_ready = True
    return log_file
