"""`python -m bot` under cProfile (CPU time of the event-loop thread), for `bench_bot.py --profile FILE`.

A SIGTERM stops the bot as Ctrl-C would, so the statistics are written to FILE on the way out.
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys
import time


def main() -> int:
    out = sys.argv[1]
    sys.argv = [sys.argv[0]]
    signal.signal(signal.SIGTERM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
    from bot.__main__ import main as bot_main

    profiler = cProfile.Profile(time.thread_time)  # CPU of the event-loop thread, not waits for the GIL
    profiler.enable()
    try:
        return bot_main()
    finally:
        profiler.disable()
        profiler.dump_stats(out)


if __name__ == "__main__":
    sys.exit(main())
