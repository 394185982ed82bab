"""Settings → About: the version (from pyproject, through the installed metadata), where the data lives, the
database's schema revision, and the licence notices of the fonts and libraries ClubDesk ships with."""

from __future__ import annotations

import platform
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from clubdesk import __version__, paths
from clubdesk.reports.fonts import fonts_dir
from clubdesk.storage import Database, current_revision, known_revisions


@dataclass(frozen=True)
class Library:
    name: str
    distribution: str  # the name importlib.metadata knows it by ("" for Python itself)
    licence: str  # SPDX identifier
    url: str


# What the installer bundles (installer/clubdesk.spec); installer/licences.py copies their licence texts.
LIBRARIES: tuple[Library, ...] = (
    Library("Python", "", "PSF-2.0", "https://www.python.org/"),
    Library("Qt for Python (PySide6) and Qt", "PySide6_Essentials", "LGPL-3.0-only", "https://www.qt.io/"),
    Library("Shiboken6", "shiboken6", "LGPL-3.0-only", "https://www.qt.io/"),
    Library("SQLAlchemy", "SQLAlchemy", "MIT", "https://www.sqlalchemy.org/"),
    Library("Alembic", "alembic", "MIT", "https://alembic.sqlalchemy.org/"),
    Library("Mako", "Mako", "MIT", "https://www.makotemplates.org/"),
    Library("ReportLab", "reportlab", "BSD-3-Clause", "https://www.reportlab.com/"),
    Library("rl-accel", "rl_accel", "BSD-3-Clause", "https://www.reportlab.com/"),
    Library("platformdirs", "platformdirs", "MIT", "https://github.com/tox-dev/platformdirs"),
    Library("rustworkx", "rustworkx", "Apache-2.0", "https://www.rustworkx.org/"),
    Library("Babel", "babel", "BSD-3-Clause", "https://babel.pocoo.org/"),
    Library("pyuca", "pyuca", "MIT", "https://github.com/jtauber/pyuca"),
)

FONTS = (("DejaVu Sans", "Bitstream-Vera", "https://dejavu-fonts.github.io/"),)


@dataclass(frozen=True)
class AboutInfo:
    version: str
    database: Path
    schema: str | None
    schema_latest: str
    data_folder: Path
    portable: bool
    libraries: tuple[tuple[Library, str], ...]  # each library with its installed version ("" when unknown)
    fonts: tuple[tuple[str, str, str], ...]
    font_licence: Path


def library_version(lib: Library) -> str:
    if not lib.distribution:
        return platform.python_version()
    try:
        return version(lib.distribution)
    except PackageNotFoundError:
        return ""


def about(db: Database) -> AboutInfo:

    return AboutInfo(
        version=__version__,
        database=Path(db.path),
        schema=current_revision(Path(db.path)),
        schema_latest=known_revisions()[-1],
        data_folder=paths.data_dir(),
        portable=paths.portable_home() is not None,
        libraries=tuple((lib, library_version(lib)) for lib in LIBRARIES),
        fonts=FONTS,
        font_licence=fonts_dir() / "LICENSE-DejaVu.txt",
    )
