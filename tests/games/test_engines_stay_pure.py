"""games/ never imports Django: the engines run alone, in the CLI and the benchmarks."""

import ast
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"


def test_no_module_in_games_imports_django() -> None:
    offenders = []
    for path in GAMES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "django" or n.startswith("django.") for n in names):
                offenders.append(str(path.relative_to(GAMES_DIR)))
    assert offenders == []


LEDGER_DIR = GAMES_DIR.parent / "ledger"
PARTICULAR = ("tarocco", "ergio", "ponte", "sanmarco", "cardchess")


def test_no_module_in_the_ledger_imports_a_particular_game() -> None:
    # The ledger reads what every game declares through games.core (the registry, the
    # Outcome, the declared choices), never a game's own modules.
    offenders = []
    for path in LEDGER_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
                if node.module == "games":
                    names += [f"games.{a.name}" for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] == "games" and len(parts) > 1 and parts[1] in PARTICULAR:
                    offenders.append(f"{path.relative_to(LEDGER_DIR)}: {name}")
    assert offenders == []


TESTS_DIR = GAMES_DIR.parent / "tests"


def test_no_test_hides_an_engine() -> None:
    # Tests run the house production runs: every engine stays registered. A test that needs
    # free per-seat points plays Punti (tests/points_game.py), registered beside the five.
    offenders = []
    for path in TESTS_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in ("setattr", "delattr", "setitem", "delitem"):
                continue
            target = node.args[0] if node.args else None
            named = ast.unparse(target) if target is not None else ""
            if "registry" in named or "_load" in named or "SLUGS" in named:
                offenders.append(f"{path.relative_to(TESTS_DIR)}:{node.lineno}")
    assert offenders == []
