"""Issue 22 item 6: the night's services import each other one way only. The imports between
``src/clubdesk/services/*.py`` are read from the source (ast), module-level and inside functions alike
(an import inside a function only hides a cycle), and no cycle may pass through a checked module.

``CHECKED`` grows as modules are untangled (desk/members/reports/discipline are split in other parts of
issue 22: add them here when their cycles are gone)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICES = Path(__file__).resolve().parents[2] / "src" / "clubdesk" / "services"
PACKAGE = "clubdesk.services"

CHECKED = [
    "results",
    "rounds",
    "standings",
    "followups",
    "table_entry",
    "table_pages",
    "result_rows",
    "round_data",
    "result_tables",
    "forfeits",
    "ratings",
    "prize_plans",
    "night_config",
    "explain",
    "pair_names",
    "readings",
    "hands",
    "hand_guard",
    "changes",
    "approvals",
    "table_change",
]


def _targets(node: ast.AST, modules: set[str]) -> set[str]:
    out: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            parts = alias.name.split(".")
            if alias.name.startswith(PACKAGE + ".") and parts[2] in modules:
                out.add(parts[2])
    elif isinstance(node, ast.ImportFrom) and node.module:
        if node.module == PACKAGE:
            out |= {a.name for a in node.names if a.name in modules}
        elif node.module.startswith(PACKAGE + "."):
            name = node.module.split(".")[2]
            if name in modules:
                out.add(name)
    return out


def import_graph(*, module_level_only: bool) -> dict[str, set[str]]:
    """Service module -> the service modules it imports (at module level only, or anywhere)."""
    modules = {p.stem for p in SERVICES.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for name in sorted(modules):
        tree = ast.parse((SERVICES / f"{name}.py").read_text(encoding="utf-8"))
        nodes = tree.body if module_level_only else list(ast.walk(tree))
        edges: set[str] = set()
        for node in nodes:
            edges |= _targets(node, modules)
        edges.discard(name)
        graph[name] = edges
    return graph


def cycles_through(graph: dict[str, set[str]], start: str) -> list[list[str]]:
    """Every simple cycle start -> ... -> start (depth-first, the graph is small)."""
    found: list[list[str]] = []

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                found.append([*path, start])
            elif nxt not in path and len(found) < 20:
                walk(nxt, [*path, nxt])

    walk(start, [start])
    return found


def test_the_graph_sees_the_imports_it_should() -> None:
    """The reader itself: known one-way imports are found (so an empty cycle list means something)."""
    graph = import_graph(module_level_only=False)
    assert "round_data" in graph["rounds"]
    assert "followups" in graph["results"]
    assert {"ratings", "standings", "round_data"} <= graph["followups"]
    # a made-up cycle is reported
    assert cycles_through({"a": {"b"}, "b": {"c"}, "c": {"a"}}, "a") == [["a", "b", "c", "a"]]


def test_no_import_cycle_through_the_night_services() -> None:
    graph = import_graph(module_level_only=False)
    problems = {name: cycles_through(graph, name) for name in CHECKED}
    assert {k: v for k, v in problems.items() if v} == {}


def test_followups_calls_none_of_the_services_back() -> None:
    """Issue 22 item 6: ``followups`` owns what follows a change and builds on the lower pieces only."""
    graph = import_graph(module_level_only=False)
    callers = {"results", "rounds", "forfeits", "table_entry", "discipline", "readings", "desk"}
    assert graph["followups"] & callers == set()
    for low in ("round_data", "standings", "ratings", "prize_plans"):
        assert "followups" not in graph[low]


def test_night_services_are_at_most_800_lines() -> None:
    """Issue 22 item 6: no service module of this part above 800 lines (split by what it serves)."""
    long = {
        name: n
        for name in CHECKED
        if (n := len((SERVICES / f"{name}.py").read_text(encoding="utf-8").splitlines())) > 800
    }
    assert long == {}


# docs/architecture.md, "The night's service modules": each line imports only from the lines below it
LAYERS = [
    ["explain", "readings"],
    ["rounds"],
    ["table_entry"],
    ["table_pages"],
    ["results"],
    ["forfeits", "hands", "approvals"],
    ["followups", "table_change"],
    ["hand_guard"],
    ["standings", "night_config", "result_tables"],
    ["result_rows"],
    ["round_data", "ratings", "prize_plans", "pair_names", "changes"],
]


def test_the_night_services_import_downwards_only() -> None:
    graph = import_graph(module_level_only=False)
    assert sorted(n for layer in LAYERS for n in layer) == sorted(CHECKED)
    upward = {}
    for i, layer in enumerate(LAYERS):
        below = {n for lower in LAYERS[i + 1 :] for n in lower}
        for name in layer:
            wrong = (graph[name] & set(CHECKED)) - below
            if wrong:
                upward[name] = sorted(wrong)
    assert upward == {}
