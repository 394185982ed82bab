"""Issue 22: the desk and events services import each other no more (the cycle was dodged with imports
inside functions); the split modules of the register and the desk keep every old name importable."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICES = Path(__file__).resolve().parents[2] / "src" / "clubdesk" / "services"


def _imports(path: Path) -> set[str]:
    """Every clubdesk.services module ``path`` imports, at the top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "clubdesk.services":
                out |= {f"clubdesk.services.{a.name}" for a in node.names}
            elif node.module.startswith("clubdesk.services."):
                out.add(node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("clubdesk.services.")}
    return out


def test_no_desk_module_imports_the_events_service() -> None:
    desk = sorted(SERVICES.glob("desk*.py"))
    assert len(desk) >= 2
    for path in desk:
        assert "clubdesk.services.events" not in _imports(path), path.name


def test_old_names_stay_importable_from_the_split_services() -> None:
    from clubdesk.services import desk, desk_base, members, members_edit, members_search

    assert members.list_members is members_search.list_members
    assert members._next_number is members_edit._next_number
    assert desk._now is desk_base._now
    for name in ("register", "pay", "refund", "checkin", "entrants", "outbox", "cash_box", "withdraw"):
        assert callable(getattr(desk, name)), name
    for name in ("create_member", "import_members", "export_csv", "merge_members", "parse_csv"):
        assert callable(getattr(members, name)), name
