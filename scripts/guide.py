"""Build the user guide (issue 30): ``docs/guide`` (MyST Markdown, English) in en, id, es, tr.

    python scripts/guide.py pot                       docs/guide/locale/*.pot, the translators' templates
    python scripts/guide.py build [--lang L ...] [--out DIR] [--shots DIR] [--package]

``build`` stages the guide's sources in a temporary folder with the language's screenshots as ``_shots/``
(``scripts/dev.sh screenshots`` makes them in ``build/screenshots/<lang>/``) and runs Sphinx with warnings as
errors, so a missing picture, a broken link or a bad catalog fails the build. ``--out`` defaults to
``build/guide`` (one folder per language); ``--package`` builds into ``src/clubdesk/resources/guide``,
the copy that ships inside ClubDesk and that F1 opens. ``--placeholders`` (the wheel's build, ``setup.py``,
which cannot run the window to take pictures) stands a blank picture in for each one the shots folder
lacks and names them in ``pictures-missing.txt`` of that language's folder, so F1 can say they are missing.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "docs" / "guide"
LOCALE = SOURCE / "locale"
SHOTS = ROOT / "build" / "screenshots"
PACKAGE = ROOT / "src" / "clubdesk" / "resources" / "guide"
LANGUAGES = ("en", "id", "es", "tr")
MISSING = "pictures-missing.txt"  # clubdesk.guide.MISSING_PICTURES reads it
# a 1x1 white PNG: the stand-in for a picture a build could not take
BLANK_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63f8ffff3f0005fe02fe"
    "331295140000000049454e44ae426082"
)


def stage(into: Path, shots: Path | None, placeholders: bool = False) -> tuple[Path, list[str]]:
    """A copy of the guide's sources with ``_shots/`` holding the pictures of one language, and the names
    of the pictures stood in for by a blank one (``placeholders``; else none, and Sphinx fails on them)."""
    src = into / "src"
    shutil.copytree(SOURCE, src, ignore=shutil.ignore_patterns("_build", "_shots", "*.mo", "__pycache__"))
    target = src / "_shots"
    if shots is not None and shots.is_dir():
        shutil.copytree(shots, target)
    else:
        target.mkdir()
    missing = sorted(n for n in referenced_files(SOURCE) if not (target / n).is_file())
    if not placeholders:
        return src, []
    for name in missing:
        (target / name).write_bytes(BLANK_PNG if name.endswith(".png") else b"")
    return src, missing


def sphinx(*args: str) -> int:
    return subprocess.call([sys.executable, "-m", "sphinx", "-q", *args])


def build(lang: str, out: Path, shots_root: Path, placeholders: bool = False) -> int:
    with tempfile.TemporaryDirectory(prefix="clubdesk-guide-") as tmp:
        src, missing = stage(Path(tmp), shots_root / lang, placeholders)
        if out.exists():
            shutil.rmtree(out)
        rc = sphinx(
            "-b",
            "html",
            "-W",
            "--keep-going",
            "-E",
            "-D",
            f"language={lang}",
            "-d",
            str(Path(tmp) / "doctrees"),
            str(src),
            str(out),
        )
        if rc == 0:
            for junk in (".buildinfo", "objects.inv", ".doctrees"):
                p = out / junk
                if p.is_dir():
                    shutil.rmtree(p)
                elif p.exists():
                    p.unlink()
            if missing:
                (out / MISSING).write_text("\n".join(missing) + "\n", encoding="utf-8")
        return rc


def pot() -> int:
    with tempfile.TemporaryDirectory(prefix="clubdesk-guide-") as tmp:
        src, _missing = stage(Path(tmp), None)
        # the gettext builder reads the pages like any builder: the figures need a file each
        for name in referenced_files(SOURCE):
            (src / "_shots" / name).write_bytes(b"")
        out = Path(tmp) / "pot"
        rc = sphinx("-b", "gettext", "-W", "-E", "-d", str(Path(tmp) / "doctrees"), str(src), str(out))
        if rc:
            return rc
        LOCALE.mkdir(parents=True, exist_ok=True)
        pages = {page.stem for page in SOURCE.glob("*.md")}
        for old in LOCALE.glob("*.pot"):
            old.unlink()
        for new in sorted(out.glob("*.pot")):
            if new.stem not in pages:
                # sphinx.pot: the words of _templates/, Sphinx's own msgids, translated by hand in each
                # language's locale/<lang>/LC_MESSAGES/sphinx.po (read before Sphinx's own catalog)
                continue
            text = new.read_text(encoding="utf-8")
            # no build date in the template: it changes only when the English text does
            lines = [line for line in text.splitlines() if not line.startswith('"POT-Creation-Date:')]
            (LOCALE / new.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
            print(LOCALE / new.name)
    return 0


def referenced_files(source: Path = SOURCE) -> set[str]:
    """The file names under ``/_shots/`` that the pages show (figures and downloads)."""
    import re

    names: set[str] = set()
    for page in source.glob("*.md"):
        names |= set(re.findall(r"/_shots/([\w.-]+)", page.read_text(encoding="utf-8")))
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("pot")
    b = sub.add_parser("build")
    b.add_argument("--lang", action="append", choices=LANGUAGES)
    b.add_argument("--out", type=Path, default=ROOT / "build" / "guide")
    b.add_argument("--shots", type=Path, default=SHOTS)
    b.add_argument("--package", action="store_true", help="build into the package (what F1 opens)")
    b.add_argument(
        "--placeholders", action="store_true", help="a blank picture for each one the shots folder lacks"
    )
    args = parser.parse_args(argv)
    if args.cmd == "pot":
        return pot()
    out = PACKAGE if args.package else args.out
    failed = []
    for lang in args.lang or LANGUAGES:
        if build(lang, out / lang, args.shots, args.placeholders) != 0:
            failed.append(lang)
    if failed:
        print(f"the guide did not build in: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"the guide is in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
