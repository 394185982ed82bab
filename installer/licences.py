"""Copy the licence texts of everything the bundle ships into one folder (``licences/`` beside the programs).

    build/installer/venv/bin/python installer/licences.py build/installer/dist/clubdesk/licences

For each library of ``clubdesk.services.club.about_info.LIBRARIES`` (the list Settings → About shows): the LICENSE,
COPYING and NOTICE files of its installed distribution; plus the DejaVu fonts' licence and Python's own.
"""

from __future__ import annotations

import shutil
import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from clubdesk.reports.fonts import fonts_dir
from clubdesk.services.club.about_info import LIBRARIES

WORDS = ("licen", "copying", "notice", "authors")


def main(target: Path) -> int:
    target.mkdir(parents=True, exist_ok=True)
    missing: list[str] = []
    for lib in LIBRARIES:
        if not lib.distribution:
            continue
        try:
            dist = distribution(lib.distribution)
        except PackageNotFoundError:
            missing.append(lib.distribution)
            continue
        files = [
            f for f in dist.files or () if any(w in f.name.lower() for w in WORDS) and ".dist-info" in str(f)
        ]
        if not files:
            missing.append(lib.distribution)
        for f in files:
            src = Path(str(dist.locate_file(f)))
            if src.is_file():
                shutil.copyfile(src, target / f"{lib.distribution}-{src.name}")
    # Qt and PySide6 wheels carry no licence file: the LGPL-3 (and the GPL-3 it builds on) from the system
    for name in ("LGPL-3", "GPL-3"):
        text = Path("/usr/share/common-licenses") / name
        if text.is_file():
            shutil.copyfile(text, target / f"PySide6-Qt-{name}.txt")
            missing = [m for m in missing if m not in ("PySide6_Essentials", "shiboken6")]
    shutil.copyfile(fonts_dir() / "LICENSE-DejaVu.txt", target / "DejaVu-LICENSE.txt")
    python_licence = (
        Path(sys.base_prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    )
    if (python_licence / "LICENSE.txt").is_file():
        shutil.copyfile(python_licence / "LICENSE.txt", target / "Python-LICENSE.txt")
    (target / "README.txt").write_text(
        "Licence texts of the libraries and fonts bundled with ClubDesk ("
        + ", ".join(f"{lib.name}: {lib.licence}" for lib in LIBRARIES)
        + ", DejaVu fonts: Bitstream-Vera).\n",
        encoding="utf-8",
    )
    if missing:
        print("licences: no licence file found for " + ", ".join(missing), file=sys.stderr)
    print(f"licences: {len(list(target.iterdir()))} files in {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1])))
