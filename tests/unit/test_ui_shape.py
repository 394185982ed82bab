"""The shape of ``clubdesk/ui`` (HOUSE.md §3.3): screens grouped by domain, no module over 500 lines, no
screen opening a database session (faces call services), no import of another module's private name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "src" / "clubdesk" / "ui"
MAX_LINES = 500
FOLDERS = {
    "shell",
    "widgets",
    "members",
    "events",
    "desk",
    "money",
    "night",
    "phones",
    "ranking",
    "discipline",
    "publishing",
    "club",
}
# the rounds screen is being split into ui/night/ on its own branch
PENDING: set[str] = set()


def _modules() -> list[Path]:
    return sorted(p for p in UI.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_ui_module_sits_in_a_domain_folder() -> None:
    loose = [p.name for p in UI.glob("*.py") if p.name != "__init__.py" and p.name not in PENDING]
    assert loose == []
    folders = {p.name for p in UI.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders <= FOLDERS, folders - FOLDERS
    for folder in FOLDERS & folders:
        assert (UI / folder / "__init__.py").exists(), folder


def test_no_ui_module_is_over_500_lines() -> None:
    long = {
        str(p.relative_to(UI)): n
        for p in _modules()
        if p.name not in PENDING and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_no_screen_opens_a_database_session() -> None:
    opens = re.compile(r"\.(session|read_session|read_now)\(")
    found = [
        f"{p.relative_to(UI)}:{i}"
        for p in _modules()
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if opens.search(line)
    ]
    assert found == []


def test_no_ui_module_imports_a_private_name() -> None:
    found: list[str] = []  # ``_`` (gettext) is the one public name that starts with "_"
    for p in _modules():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("clubdesk."):
                found += [
                    f"{p.relative_to(UI)}: {node.module}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_") and a.name != "_" and not a.name.startswith("__")
                ]
    assert found == []
