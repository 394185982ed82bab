"""The shape of the house (docs/architecture.md, "The five rules"), read from the source with ast.

- services are domain packages in one declared order, each importing only lower ones (rule 1);
- ui/, cli/ and web/ reach a service package through its face (its ``__init__``), nothing deeper (rule 1);
- reports/ import nothing from services: the consumer owns the shape (rule 4);
- no import cycle anywhere under src/ or benchmarks/, imports inside functions included (rule 1);
- no import inside a function in services/ (rule 1); no module's ``_private`` name imported by another
  (rule 2);
- no one-letter alias for a ClubDesk module (rule 2);
- no module in services/ or ui/ over 500 lines (rule 5);
- services sit on at most six package floors.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
SERVICES = "clubdesk.services"

# the declared order (lowest first); the night's three layers in their own order
ORDER = [
    "kernel",
    "club",
    "members",
    "events",
    "desk",
    "night",
    "money",
    "discipline",
    "phones",
    "publishing",
    "federation",
    "demo",
]
NIGHT_ORDER = ["data", "ranking", "play"]
FACES = ("clubdesk.ui", "clubdesk.cli", "clubdesk.web")
MAX_LINES = 500
MAX_FLOORS = 6


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the module imported (a module, or the package whose name was imported)
    names: tuple[str, ...]  # the names taken from it (from-imports)
    in_function: bool
    line: int


def module_name(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules(base: Path, top: str) -> dict[str, Path]:
    return {module_name(p, base): p for p in sorted((base / top).rglob("*.py"))}


ALL = {**modules(SRC, "clubdesk"), **modules(ROOT, "benchmarks")}


def imports_of(name: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside |= {id(n) for n in ast.walk(fn) if n is not fn}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.append(Import(name, a.name, (), id(node) in inside, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            for a in node.names:
                full = f"{module}.{a.name}"
                if full in ALL:  # a module taken by name
                    out.append(Import(name, full, (), id(node) in inside, node.lineno))
                else:
                    out.append(Import(name, module, (a.name,), id(node) in inside, node.lineno))
    return out


IMPORTS = {name: imports_of(name, path) for name, path in ALL.items()}


def ours(target: str) -> bool:
    return target in ALL


def domain(module: str) -> str | None:
    """kernel, club, …, night.data / night.ranking / night.play, …, demo; None outside services."""
    if not module.startswith(SERVICES + "."):
        return None
    parts = module.split(".")
    if parts[2] == "night" and len(parts) > 3 and parts[3] in NIGHT_ORDER:
        return f"night.{parts[3]}"
    return parts[2]


def rank(dom: str) -> tuple[int, int]:
    top, _, sub = dom.partition(".")
    return ORDER.index(top), (NIGHT_ORDER.index(sub) if sub else len(NIGHT_ORDER))


def test_the_services_are_the_declared_packages() -> None:
    services = SRC / "clubdesk" / "services"
    loose = sorted(p.name for p in services.glob("*.py") if p.name != "__init__.py")
    assert loose == []
    packages = sorted(p.name for p in services.iterdir() if (p / "__init__.py").exists())
    assert packages == sorted(ORDER)


def test_a_service_package_imports_only_lower_packages() -> None:
    upward = []
    for name, found in IMPORTS.items():
        mine = domain(name)
        if mine is None:
            continue
        for imp in found:
            theirs = domain(imp.target)
            if theirs is None or theirs == mine or not ours(imp.target):
                continue
            if imp.target == f"{SERVICES}.night" and mine.startswith("night"):
                upward.append(f"{name}:{imp.line} imports its own package's face")
            elif theirs.startswith("night.") and mine.startswith("night."):
                if rank(theirs) > rank(mine):
                    upward.append(f"{name}:{imp.line} -> {imp.target}")
            elif ORDER.index(theirs.split(".")[0]) > ORDER.index(mine.split(".")[0]):
                upward.append(f"{name}:{imp.line} -> {imp.target}")
    assert upward == []


def test_another_package_is_reached_through_its_face() -> None:
    """ui/, cli/, web/ and the other service packages use ``clubdesk.services.<package>``, nothing deeper."""
    deep = []
    for name, found in IMPORTS.items():
        face_user = name.startswith(FACES) or name in ("clubdesk.app", "clubdesk.guide", "clubdesk.server")
        mine = domain(name)
        if not face_user and mine is None:
            continue
        for imp in found:
            if not imp.target.startswith(SERVICES + ".") or not ours(imp.target):
                continue
            package = ".".join(imp.target.split(".")[:3])
            if mine is not None and package.split(".")[2] == mine.split(".")[0]:
                continue  # inside its own package
            if imp.target != package:
                deep.append(f"{name}:{imp.line} -> {imp.target}")
    assert deep == []


def test_reports_import_nothing_from_services() -> None:
    found = [
        f"{name}:{imp.line} -> {imp.target}"
        for name, imps in IMPORTS.items()
        if name.startswith("clubdesk.reports")
        for imp in imps
        if imp.target == SERVICES or imp.target.startswith(SERVICES + ".")
    ]
    assert found == []


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            node, it = work[-1]
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on.discard(top)
                        comp.append(top)
                        if top == node:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
    return found


def module_graph() -> dict[str, set[str]]:
    return {
        name: {i.target for i in imps if ours(i.target) and i.target != name}
        for name, imps in IMPORTS.items()
    }


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_anywhere() -> None:
    assert cycles(module_graph()) == []


def test_no_import_inside_a_function_in_services() -> None:
    hidden = [
        f"{name}:{imp.line} {imp.target}"
        for name, imps in IMPORTS.items()
        if name.startswith(SERVICES)
        for imp in imps
        if imp.in_function
    ]
    assert hidden == []


def test_no_private_name_of_another_module_is_imported() -> None:
    private = []
    for name, path in ALL.items():
        if not name.startswith("clubdesk"):
            continue
        aliases: dict[str, str] = {}
        for imp in IMPORTS[name]:
            if not ours(imp.target) or imp.target == name:
                continue
            private += [
                f"{name}:{imp.line} {imp.target}.{n}"
                for n in imp.names
                if n.startswith("_") and n != "_" and not n.startswith("__")  # a dunder is public
            ]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    if f"{node.module}.{a.name}" in ALL:
                        aliases[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, ast.Import):
                aliases |= {a.asname: a.name for a in node.names if a.asname and a.name in ALL}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and aliases[node.value.id] != name
                and node.attr.startswith("_")
                and node.attr != "_"
                and not node.attr.startswith("__")
            ):
                private.append(f"{name}:{node.lineno} {aliases[node.value.id]}.{node.attr}")
    assert private == []


def test_no_one_letter_alias_of_a_clubdesk_module() -> None:
    short = []
    for name, path in ALL.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    full = a.name if isinstance(node, ast.Import) else f"{node.module}.{a.name}"
                    if a.asname and len(a.asname) <= 2 and a.asname.isupper() and full in ALL:
                        short.append(f"{name}:{node.lineno} {full} as {a.asname}")
    assert short == []


def test_no_service_or_screen_module_is_over_500_lines() -> None:
    long = {
        name: n
        for name, path in ALL.items()
        if name.startswith((SERVICES, "clubdesk.ui"))
        and (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_services_sit_on_at_most_six_package_floors() -> None:
    graph: dict[str, set[str]] = {top: set() for top in ORDER}
    for name, imps in IMPORTS.items():
        mine = domain(name)
        if mine is None:
            continue
        for imp in imps:
            theirs = domain(imp.target)
            if theirs is not None and ours(imp.target) and theirs.split(".")[0] != mine.split(".")[0]:
                graph[mine.split(".")[0]].add(theirs.split(".")[0])

    @functools.cache
    def floor(package: str) -> int:
        return 1 + max((floor(lower) for lower in graph[package]), default=0)

    assert max(floor(p) for p in ORDER) <= MAX_FLOORS, {p: floor(p) for p in ORDER}
