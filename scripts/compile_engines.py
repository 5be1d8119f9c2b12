"""Compile the engine modules listed in games/compiled.py with mypyc, in place.

Run by `make install` (and again by make whenever their sources change). The extension
modules land beside their sources, where Python imports them first; the build's scratch
files go to build/mypyc. The source hash of what was compiled is written beside, so the test
suite can tell a stale build from a fresh one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)

from games.compiled import MODULES, source_hash  # noqa: E402


def main() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    # separate=True: each module its own extension, so that any one of them can be imported
    # from its source (ENGINES_PURE_PYTHON=1) while the others stay compiled.
    extensions = mypycify(list(MODULES), opt_level="3", target_dir="build/mypyc", separate=True)
    setup(
        name="club-ledger-engines",
        packages=[],
        py_modules=[],
        ext_modules=extensions,
        # --parallel: the C compiler runs on every core, one module's file each.
        script_args=[
            "--quiet",
            "build_ext",
            "--inplace",
            "--parallel",
            str(os.cpu_count() or 1),
            "--build-temp",
            "build/mypyc/temp",
        ],
    )
    Path("build/mypyc/compiled-from").write_text(source_hash() + "\n")


if __name__ == "__main__":
    main()
