"""``python -m bot`` is the same as the ``rummy-bot`` command."""

import sys

from bot.cli import main

sys.exit(main())
