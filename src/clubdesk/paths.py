"""Where ClubDesk keeps its data: the platformdirs user data dir, or ``CLUBDESK_HOME``.

Nothing is ever written next to the program. ``--db PATH`` (CLI and GUI) overrides the database file.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

from platformdirs import user_data_dir

APP_NAME = "ClubDesk"


def data_dir() -> Path:
    """The folder holding the database, backups and logs (created on first use)."""
    home = os.environ.get("CLUBDESK_HOME")
    path = Path(home).expanduser() if home else Path(user_data_dir(APP_NAME, appauthor=False))
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
