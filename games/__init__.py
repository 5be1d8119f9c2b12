"""Rules engines for the club's games. Pure Python: nothing here imports Django.

A few hot modules are also compiled with mypyc from the same source (games/compiled.py);
``ENGINES_PURE_PYTHON=1`` imports them from their source instead.
"""

import os

if os.environ.get("ENGINES_PURE_PYTHON") == "1":
    from games.compiled import use_source_only

    use_source_only()
