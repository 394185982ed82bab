"""The screens and the phones' pages never parse stored settings: services hand them typed values (the
night settings as ``NightSettings``), so no module under ``ui/`` or ``web/`` imports ``json``."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "clubdesk"


def test_no_face_module_imports_json() -> None:
    found = []
    for face in ("ui", "web"):
        for path in sorted((SRC / face).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else []
                )
                if any(n == "json" or n.startswith("json.") for n in names):
                    found.append(str(path.relative_to(SRC)))
    assert found == []
