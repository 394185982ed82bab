"""Who may import whom below the services (HOUSE.md §3.2, rules 1 and 3): the reports own their data shapes
and words and import nothing from ``clubdesk.services``; the competition rules are an engine (no services, no
database, no Qt); labels, text folding and the models sit below the services. Imports are read from the
source (ast), at module level, inside functions and under ``TYPE_CHECKING`` alike."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PKG = SRC / "clubdesk"


def _module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, src: Path = SRC) -> set[str]:
    """Every module ``path`` imports anywhere in its source (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _module_name(path, src).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package[: len(package) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names}
    return out


def _files(*where: str) -> list[Path]:
    out: list[Path] = []
    for w in where:
        p = PKG / w
        out += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    return out


def _offending(files: list[Path], forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    bad: dict[str, list[str]] = {}
    for f in files:
        hits = sorted(m for m in imported(f) if any(m == x or m.startswith(x + ".") for x in forbidden))
        if hits:
            bad[str(f.relative_to(SRC))] = hits
    return bad


def test_reports_import_nothing_from_services() -> None:
    files = _files("reports")
    assert len(files) > 20 and any(f.parent.name == "data" for f in files)
    assert _offending(files, ("clubdesk.services",)) == {}


@pytest.mark.parametrize(
    "forbidden", ["clubdesk.services", "clubdesk.storage", "sqlalchemy", "PySide6", "clubdesk.ui"]
)
def test_the_competition_rules_are_an_engine(forbidden: str) -> None:
    files = _files("competition")
    assert {f.name for f in files} >= {"formats.py", "discipline.py", "errors.py"}
    assert _offending(files, (forbidden,)) == {}


def test_labels_text_and_models_sit_below_the_services() -> None:
    files = _files("labels.py", "text.py", "models")
    assert _offending(files, ("clubdesk.services", "clubdesk.ui")) == {}


def test_the_checker_sees_imports_inside_functions_and_type_checking(tmp_path: Path) -> None:
    pkg = tmp_path / "clubdesk" / "reports"
    pkg.mkdir(parents=True)
    f = pkg / "x.py"
    f.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from clubdesk.services.publishing.players import PlayerCard\n"
        "def g():\n    from clubdesk import services\n    import clubdesk.services.publishing.share\n"
    )
    assert imported(f, tmp_path) >= {
        "clubdesk.services.publishing.players",
        "clubdesk.services",
        "clubdesk.services.publishing.share",
    }
