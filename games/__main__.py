import sys

from games.core.cli import main

sys.exit(main())
