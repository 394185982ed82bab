"""Where the built user guide is, and which page belongs to which screen.

The guide (``docs/guide``, built by ``scripts/guide.py build --package``) ships as HTML inside the package,
one folder per language: ``resources/guide/<lang>/index.html``. F1 in the window and ``clubdesk-cli guide``
both ask this module. ``CLUBDESK_GUIDE_DIR`` points at another built guide (tests, a guide built elsewhere).
No Qt here: the window turns :func:`page_url`'s answer into ``QDesktopServices.openUrl``. A guide built
where no screenshots could be taken (the wheel's build) has blank pictures and a ``pictures-missing.txt``
naming them: F1 and ``clubdesk-cli guide`` say so.
"""

from __future__ import annotations

import os
from pathlib import Path

from clubdesk.i18n import LANGUAGE_NAMES, _
from clubdesk.paths import resources_dir

# A screen's section key -> the guide's page and anchor that explain it (docs/guide/*.md targets).
SECTION_PAGES: dict[str, str] = {
    "members": "first-night.html#members",
    "events": "first-night.html#events",
    "desk": "first-night.html#desk",
    "rounds": "first-night.html#entry",
    "standings": "first-night.html#standings",
    "season": "prizes-seasons.html#seasons",  # the Season and Ratings sections
    "ratings": "prizes-seasons.html#ratings",
    "discipline": "corrections.html#discipline",
    "reports": "first-night.html#printing",
    "settings": "backups.html#backup",
}
START_PAGE = "index.html"
MISSING_PICTURES = "pictures-missing.txt"  # written by scripts/guide.py build --placeholders


def guide_root() -> Path:
    override = os.environ.get("CLUBDESK_GUIDE_DIR")
    return Path(override) if override else resources_dir() / "guide"


def built_languages(root: Path | None = None) -> list[str]:
    base = root or guide_root()
    return [lang for lang in LANGUAGE_NAMES if (base / lang / START_PAGE).is_file()]


def guide_dir(lang: str, root: Path | None = None) -> Path | None:
    """The built guide in ``lang``, else in English, else None (not built)."""
    base = root or guide_root()
    for candidate in (lang, "en"):
        folder = base / candidate
        if (folder / START_PAGE).is_file():
            return folder
    return None


def pictures_missing(folder: Path) -> bool:
    """The built guide in ``folder`` stands blank pictures in for its screenshots."""
    return (folder / MISSING_PICTURES).is_file()


def without_pictures() -> str:
    """What F1 and ``clubdesk-cli guide`` say of a guide whose pictures are blank."""
    return _("This copy of the user guide was installed without its screenshots: its pictures are blank.")


def page_for(section: str) -> str:
    return SECTION_PAGES.get(section, START_PAGE)


def page_path(section: str, lang: str, root: Path | None = None) -> tuple[Path, str] | None:
    """The HTML file for ``section``'s page in ``lang`` and its anchor ("" for none), or None if not built."""
    folder = guide_dir(lang, root)
    if folder is None:
        return None
    page, _sep, anchor = page_for(section).partition("#")
    path = folder / page
    if not path.is_file():
        path, anchor = folder / START_PAGE, ""
    return path, anchor


def page_url(section: str, lang: str, root: Path | None = None) -> str | None:
    """A ``file://`` URL of the page (with its anchor) for ``section`` in ``lang``, or None if not built."""
    found = page_path(section, lang, root)
    if found is None:
        return None
    path, anchor = found
    url = path.resolve().as_uri()
    return f"{url}#{anchor}" if anchor else url
