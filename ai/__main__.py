"""``python -m ai``: see :mod:`ai.cli`."""

import os
import sys

from .cli import main

try:
    status = main()
    sys.stdout.flush()
except BrokenPipeError:  # output piped into a reader that stopped early (e.g. `| head`)
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = 0
sys.exit(status)
