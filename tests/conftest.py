"""Shared pytest hooks."""

from __future__ import annotations

import os
import sys


def pytest_collection_finish(session):
    """Under mutmut, forget the engines' memoised results once the tests are collected.

    mutmut forks each mutant's test run from a process that has already run the
    tests once, and it credits calls made while importing the test modules to the
    first test; an ``lru_cache`` filled then would hide a mutant in anything it
    calls (every Begird island mutant survived that way). Cleared here, the first
    test that needs the value computes it again, with the mutant, and is credited.
    """
    if "MUTANT_UNDER_TEST" not in os.environ:
        return
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("games", "bot", "render"):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
