"""Imports run one way (docs/architecture.md): every import of every module under ledger/,
read with ``ast`` (those inside functions too, which a module may use to put off an import
but not to hide one), follows the apps' order declared for import-linter in pyproject.toml,
the rooms of ledger/clubs (its subpackages and ground-floor modules) follow the floors
declared there too, and the modules of ledger/clubs import each other without a cycle."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
LEDGER = ROOT / "ledger"

#: Cycles among ledger/clubs' modules left on purpose, each with its reason. None today:
#: a module added here needs a line saying why its cycle cannot be broken yet.
KNOWN_CYCLES: dict[frozenset[str], str] = {}


def _modules() -> dict[str, Path]:
    """Every module of the ledger by its dotted name (migrations aside: Django writes them)."""
    found = {}
    for path in sorted(LEDGER.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if "migrations" in parts:
            continue
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """The ledger's modules ``name`` imports, each with the line, wherever the import is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # ``from ledger.clubs import jobs`` imports a module; ``from x import name``, x.
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target, node.lineno


GRAPH = nx.DiGraph()
for _name, _path in MODULES.items():
    GRAPH.add_node(_name)
    for _target, _line in _imports(_name, _path):
        GRAPH.add_edge(_name, _target)
        GRAPH.edges[_name, _target].setdefault("lines", []).append(_line)


def _declared_layers(contract_id: str = "ledger-apps") -> list[set[str]]:
    """A layers contract's layers, top first, as pyproject.toml declares them to import-linter
    (``a | b`` and ``a : b`` alike: both name the members of one layer)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c.get("id") == contract_id]
    return [{m.strip() for m in layer.replace(":", "|").split("|")} for layer in contract["layers"]]


def _app(module: str) -> str | None:
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or f"{module}.apps" in MODULES else None


def test_nothing_in_the_ledger_imports_the_background_jobs() -> None:
    # Enqueued by name, the jobs module is imported by nothing; the tasks module imports
    # the modules whose work it runs (a guard that the reader sees what it must see).
    assert ("ledger.clubs.tasks", "ledger.clubs.webhooks") in GRAPH.edges
    assert not list(GRAPH.predecessors("ledger.clubs.tasks"))
    # ledger/clubs/tasks.py's docstring says so; a function's import would be counted too.


def test_every_app_imports_only_the_apps_below_it() -> None:
    layers = _declared_layers()
    level = {app: i for i, layer in enumerate(layers) for app in layer}
    apps = {a for m in MODULES if (a := _app(m)) is not None}
    assert apps == set(level), "every app of the ledger has its layer in pyproject.toml"
    wrong = []
    for importer, imported, data in GRAPH.edges(data=True):
        a, b = _app(importer), _app(imported)
        if a is None or b is None or a == b:
            continue
        # Below means a later layer; the apps of one layer do not import each other.
        if level[b] <= level[a]:
            wrong.append(
                f"{importer} -> {imported} (line {', '.join(map(str, sorted(set(data['lines']))))})"
            )
    assert wrong == [], "imports against the apps' order:\n" + "\n".join(sorted(wrong))


def test_no_app_imports_the_pages_of_another() -> None:
    pages = ("views", "forms", "urls", "api_urls")
    wrong = [
        f"{importer} -> {imported}"
        for importer, imported in GRAPH.edges
        if _app(importer) is not None
        and _app(imported) not in (None, _app(importer))
        and (imported.rpartition(".")[2] in pages or imported.endswith("_views"))
    ]
    assert wrong == []


def test_the_modules_of_ledger_clubs_import_each_other_without_a_cycle() -> None:
    clubs = GRAPH.subgraph(m for m in MODULES if m.startswith("ledger.clubs."))
    cycles = [
        frozenset(found)
        for found in nx.strongly_connected_components(clubs)
        if len(found) > 1 or clubs.has_edge(*(2 * list(found)))
    ]
    unexplained = [sorted(c) for c in cycles if c not in KNOWN_CYCLES]
    assert unexplained == [], "import cycles in ledger/clubs: " + repr(unexplained)
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in cycles]
    assert gone == [], "cycles listed as known that no longer exist: " + repr(gone)


def _room(module: str) -> str | None:
    """The room of ledger/clubs a module is in: its subpackage, or itself on the ground floor."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["ledger", "clubs"] else None


def test_the_rooms_of_ledger_clubs_import_only_the_floors_below_them() -> None:
    floors = _declared_layers("clubs-rooms")
    level = {room: i for i, floor in enumerate(floors) for room in floor}
    rooms = {r for m in MODULES if (r := _room(m)) is not None and r != "migrations"}
    assert rooms == set(level), "every room of ledger/clubs has its floor in pyproject.toml"
    wrong = []
    for importer, imported, data in GRAPH.edges(data=True):
        a, b = _room(importer), _room(imported)
        if a is None or b is None or a == b or "migrations" in (a, b):
            continue
        # Below means a later floor; rooms sharing a floor may import each other one way
        # (``a : b``), which the no-cycle test below holds to.
        if level[b] < level[a]:
            lines = ", ".join(map(str, sorted(set(data["lines"]))))
            wrong.append(f"{importer} -> {imported} (line {lines})")
    assert wrong == [], "imports against the floors of ledger/clubs:\n" + "\n".join(sorted(wrong))


def test_the_rooms_of_ledger_clubs_import_each_other_without_a_cycle() -> None:
    rooms = nx.DiGraph()
    for importer, imported in GRAPH.edges:
        a, b = _room(importer), _room(imported)
        if a is not None and b is not None and a != b:
            rooms.add_edge(a, b)
    assert list(nx.simple_cycles(rooms)) == []
