"""Where a test that reads code (rather than runs it) finds the repository's files.

``make mutation`` runs the tests in mutmut's copy of the repository, ``mutants/`` at its root. Each module
mutmut mutates holds there every mutant of each of its functions beside the original (``x_name__mutmut_1``,
``_2``…; a trampoline switches one on at run time, by ``MUTANT_UNDER_TEST``). Read as text, such a module says
every mutated string at once: the check that each refusal reason raised has its sentence found 124 reasons no
code raises (``"XXno_matchXX"``) and stopped the run before its first mutant (issue 38).

So a test that reads code reads the repository's own files: the code as written, which is also the code the
other tests run whenever no mutant is switched on. Reading the copy "consistently" instead would mean rebuilding
one version of each module from mutmut's naming of its copies, for a reading that runs none of them: it could
kill no mutant, and would break whenever mutmut names them otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[1]
#: The repository's root: this checkout, or under mutmut the one whose ``mutants/`` copy is running.
ROOT = (
    _CHECKOUT.parent
    if "MUTANT_UNDER_TEST" in os.environ and _CHECKOUT.name == "mutants" and (_CHECKOUT.parent / "bot").is_dir()
    else _CHECKOUT
)
