"""Catalog tools for a source checkout: extract the template, compile the catalogs.

    python -m clubdesk.i18n_tools extract [OUT.pot]   the template from src/ and the data in resources/
    python -m clubdesk.i18n_tools update              bring every catalog to the template (new msgids empty)
    python -m clubdesk.i18n_tools compile             each resources/locale/<lang>/LC_MESSAGES/*.po → .mo

``scripts/dev.sh setup`` and ``scripts/dev.sh test`` compile the catalogs (the ``.mo`` files are built by the
install, never committed); ``scripts/dev.sh i18n`` extracts the template, updates the catalogs to it (a new
msgid appears with an empty translation, a msgid gone is kept as an obsolete ``#~`` entry; no fuzzy guesses)
and compiles. The tests call
:func:`extract` too, so the guard test and the committed template come from one command.

Strings that live in data files are extracted by :func:`extract_toml` (registered in ``babel.cfg``): the
``label`` of every incident kind in ``resources/incidents.toml`` and the ``name`` and ``description`` of every
ruleset preset in ``resources/rulesets/*.toml``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from clubdesk.i18n import DOMAIN, locale_dir

ROOT = Path(__file__).resolve().parents[2]  # the checkout: src/clubdesk/i18n_tools.py
KEYWORDS = ("_", "N_", "ngettext:1,2", "gettext")
TOML_KEYS = ("label", "name", "description")  # the texts of data files that are shown to users
_TOML_LINE = re.compile(r"^\s*(?P<key>[A-Za-z_]+)\s*=\s*(?P<value>\".*\")\s*(#.*)?$")


def extract_toml(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict[str, Any]
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor for ClubDesk's TOML data: yields (line, funcname, message, comments)."""
    section = ""
    key_of_item = ""
    for lineno, raw in enumerate(fileobj.read().decode("utf-8").splitlines(), start=1):
        line = raw.strip()
        if line.startswith("["):
            section = line.strip("[]").strip()
            key_of_item = ""
            continue
        m = _TOML_LINE.match(raw)
        if not m:
            continue
        value = tomllib.loads(f"v = {m.group('value')}")["v"]
        if m.group("key") == "key":
            key_of_item = str(value)
            continue
        if m.group("key") in TOML_KEYS and isinstance(value, str) and value.strip():
            where = f"{section}: {key_of_item}" if key_of_item else section or "preset"
            yield lineno, "_", value, [f"{m.group('key')} ({where})"]


def extract(out: Path | None = None) -> Path:
    """Write the template (default ``resources/locale/clubdesk.pot``) from ``src`` and ``resources``."""
    target = out or ROOT / "resources" / "locale" / f"{DOMAIN}.pot"
    target.parent.mkdir(parents=True, exist_ok=True)
    pybabel = Path(sys.executable).parent / "pybabel"
    args = [
        str(pybabel),
        "--quiet",
        "extract",
        "-F",
        "babel.cfg",
        "--no-wrap",
        "--sort-by-file",
        "-c",
        "TRANSLATORS:",
    ]
    for k in KEYWORDS:
        args += ["-k", k]
    args += ["--project", "ClubDesk", "--copyright-holder", "ClubDesk", "-o", str(target), "src", "resources"]
    subprocess.run(args, cwd=ROOT, check=True)
    return target


def template_ids(pot: Path | None = None) -> set[str]:
    """Every msgid of the template (the singular of a plural entry): what translators are asked for."""
    from babel.messages.pofile import read_po

    with (pot or ROOT / "resources" / "locale" / f"{DOMAIN}.pot").open("rb") as fh:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.id}


def catalogs(folder: Path | None = None) -> dict[str, Path]:
    """The ``.po`` file of every language that has one: {"tr": …/tr/LC_MESSAGES/clubdesk.po}."""
    base = folder or locale_dir()
    return {p.parents[1].name: p for p in sorted(base.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))}


def update_all(folder: Path | None = None, pot: Path | None = None) -> list[Path]:
    """Every catalog brought to the template: translations kept, new msgids empty, no fuzzy matching (a
    guessed translation would be wrong more often than not), the catalog's own Plural-Forms kept."""
    from babel.messages.pofile import read_po, write_po

    with (pot or ROOT / "resources" / "locale" / f"{DOMAIN}.pot").open("rb") as fh:
        template = read_po(fh)
    updated = []
    for po in catalogs(folder).values():
        with po.open("rb") as fh:
            catalog = read_po(fh, domain=DOMAIN)
        catalog.update(template, no_fuzzy_matching=True)
        with po.open("wb") as fh:
            write_po(fh, catalog, width=110)
        updated.append(po)
    return updated


def compile_all(folder: Path | None = None) -> list[Path]:
    """Compile every catalog into its ``.mo`` (fuzzy entries are left out, as gettext does). Each ``.mo``
    is written beside it and renamed into place, so a process reading it (a test worker, a running
    ClubDesk) sees the old catalog or the new one, never half of one."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in catalogs(folder).values():
        with po.open("rb") as fh:
            catalog = read_po(fh, domain=DOMAIN)  # the plural forms of its own header (not CLDR's)
        mo = po.with_suffix(".mo")
        part = mo.with_name(f"{mo.name}.{os.getpid()}.part")
        with part.open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)
        os.replace(part, mo)
        written.append(mo)
    return written


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["extract"]:
        print(extract(Path(args[1]) if len(args) > 1 else None))
        return 0
    if args[:1] == ["update"]:
        for po in update_all():
            print(po)
        return 0
    if args[:1] == ["compile"]:
        for mo in compile_all():
            print(mo)
        return 0
    print("usage: python -m clubdesk.i18n_tools extract [OUT.pot] | update | compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
