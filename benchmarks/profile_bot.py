"""`python -m bot` under cProfile (the event-loop thread), for `bench_bot.py --profile FILE`.

A SIGTERM stops the bot as Ctrl-C would, so the statistics are written to FILE on the way out.
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys


def main() -> int:
    out = sys.argv[1]
    sys.argv = [sys.argv[0]]
    signal.signal(signal.SIGTERM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
    from bot.__main__ import main as bot_main

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        return bot_main()
    finally:
        profiler.disable()
        profiler.dump_stats(out)


if __name__ == "__main__":
    sys.exit(main())
