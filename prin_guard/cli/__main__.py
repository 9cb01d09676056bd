"""``python -m prin_guard.cli``."""

import sys

from prin_guard.cli import main

sys.exit(main())
