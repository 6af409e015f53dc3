"""``python -m bot.cli``: the ``gouji`` command."""

import sys

from bot.cli import main

sys.exit(main())
