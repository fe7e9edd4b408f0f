"""A seeded random sample of one module's mutants, for a mutation run that cannot check them all.

Run from the directory that holds mutmut's ``mutants/`` (after ``mutmut run`` has generated the
mutants at least once). Prints the names, one a line, in a seeded random order; feed the first N
to ``mutmut run``. The same module and N always give the same names, so a score can be re-measured.

    python tools/mutation_sample.py games/playbai.py 100 > sample.txt
    mutmut run --max-children 1 $(cat sample.txt)

docs/testing.md explains how the scores there were sampled with it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path


def sample(module: str, size: int, mutants_dir: Path = Path("mutants")) -> list[str]:
    meta = json.loads((mutants_dir / f"{module}.meta").read_text())
    names = sorted(meta["exit_code_by_key"])
    stem = Path(module).stem
    # Two steps (a sample of at most 180, then a random order) so that the figures in
    # docs/testing.md, taken as prefixes of that order, are reproduced exactly.
    chosen = sorted(random.Random(f"issue14-{stem}").sample(names, min(SAMPLE_SIZES.get(stem, len(names)), len(names))))
    random.Random(f"order-{stem}").shuffle(chosen)
    return chosen[:size]


# The first-stage sample sizes used for the 2026-11-23 run (docs/testing.md).
SAMPLE_SIZES = {"playbai": 180, "bump": 180, "bumpboard": 60, "bumpresolve": 80, "interface": 80,
                "registry": 31, "bide": 120, "begird": 120, "hexgrid": 40}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python tools/mutation_sample.py games/<module>.py N")
    print("\n".join(sample(sys.argv[1], int(sys.argv[2]))))
