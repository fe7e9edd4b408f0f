"""`make mutation`: a fixed, seeded sample of each module's mutants against that module's fast tests.

mutmut (pinned in the Makefile, configured in ``[tool.mutmut]``) would check thousands of mutants
against every test; on a shared 2-core machine that takes a day. This driver, run from the
repository root with the venv's Python, instead:

1. generates every mutant once (``mutate_only_covered_lines = false``: no coverage pass, and the
   mutant names depend only on the source, so the sample below does not move when a test is added)
   and records which tests reach each function (mutmut's "stats" pass over the fast tests in
   ``pytest_add_cli_args_test_selection``);
2. narrows that record per module to the module's own test files (``MODULES`` below), so a Bide
   mutant runs only Bide's tests, not every service test that happens to play Bide;
3. for each module runs ``mutmut run`` on a fixed sample: the first N of the module's mutant names
   ordered by ``sha256("hexplay-mutation:" + name)``. Adding or removing a mutant elsewhere moves
   at most one name in or out of a sample;
4. re-checks the survivors of modules whose code runs at import (``fresh=True``) in a fresh
   process, where mutmut's forked runner cannot (docs/testing.md), and records the verdict in
   mutmut's own files, so ``mutmut results`` / ``mutmut show NAME`` afterwards tell the same story;
5. runs ``tools/drop_where.py`` (the mutant mutmut never makes: a write losing its ``WHERE``);
6. prints one table: killed / survived / equivalent-listed / score per module, and every survivor
   that is NOT in the table of equivalent mutants of docs/testing.md, marked NEW.

    python tools/mutation_run.py                 # everything (about an hour on 2 busy cores)
    python tools/mutation_run.py games/bide.py   # only these modules (after a whole run: reuses its stats)
    python tools/mutation_run.py --list games/bide.py   # print a module's sample names and stop
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import resource
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
MUTMUT = str(Path(sys.executable).parent / "mutmut")
DOCS = ROOT / "docs" / "testing.md"
EQUIVALENT_HEADING = "### Equivalent mutants in the `make mutation` samples"
SEED = "hexplay-mutation:"
CHILDREN = os.environ.get("MUTATION_CHILDREN", "2")


@dataclass(frozen=True)
class Module:
    path: str
    sample: int
    tests: tuple[str, ...]
    fresh: tuple[str, ...] = ()  # code that runs at import: re-check survivors with these tests in a fresh process


ENGINE = ("tests/test_contract.py", "tests/test_quiet_path.py", "tests/test_mutants_engines.py")
BIDE = ("tests/test_bide_rules.py", "tests/test_bide_properties.py")
BEGIRD = (
    "tests/test_begird.py",
    "tests/test_begird_turns.py",
    "tests/test_begird_words.py",
    "tests/test_begird_properties.py",
    "tests/test_mutants_begird.py",
)
PLAYBAI = (
    "tests/test_playbai.py",
    "tests/test_playbai_turns.py",
    "tests/test_playbai_words.py",
    "tests/test_playbai_properties.py",
    "tests/test_mutants_playbai.py",
    "tests/test_playbai_keys.py",
)
BUMP = (
    "tests/test_bump.py",
    "tests/test_bump_choices.py",
    "tests/test_bump_words.py",
    "tests/test_bump_properties.py",
    "tests/test_mutants_bump.py",
    "tests/test_fast_paths.py",
    "tests/test_mutants_engines.py",
)
# The bot's fast tests (no Discord but test_challenge_limits' three end-to-end tests, a few seconds each):
# every bot module runs those of them that reach the mutated function (mutmut's record).
BOT = (
    "tests/test_service.py",
    "tests/test_service_texts.py",
    "tests/test_service_outcomes.py",
    "tests/test_lobby_rules.py",
    "tests/test_storage_isolation.py",
    "tests/test_store_contract.py",
    "tests/test_storage_trips.py",
    "tests/test_challenge_limits.py",
    "tests/test_damaged_rows.py",
    "tests/test_lifecycle_races.py",
    "tests/test_mutants_bot.py",
)
# The match features a match is played through: the bot's fast tests and the rules the 2026-11-28 run found
# unpinned there (lost answers, tapped turns, looking back, quiet hours, the background check's pace).
SERVICE = (*BOT, "tests/test_mutants_service.py")

# The SQLite store's modules and their samples, roughly by size.
SQLITE_SAMPLES = (
    ("store", 5),
    ("plumbing", 6),
    ("matches", 8),
    ("boards", 4),
    ("lobby", 6),
    ("challenges", 6),
    ("quarantine", 4),
    ("premoves", 7),
    ("reminders", 6),
    ("preferences", 5),
    ("languages", 3),
    ("offers", 6),
    ("deadlines", 6),
    ("shards", 6),
    ("ratings", 5),
    ("reviews", 4),
)

# A store module whose feature is tested in its own file outside BOT (fast: no Discord, no browser) also runs it.
SQLITE_FEATURE_TESTS = {"languages": ("tests/test_languages.py",), "shards": ("tests/test_identify_pacing.py",)}

# Sample sizes: chosen so the whole run fits well inside an hour on this shared 2-core machine
# (docs/testing.md has the measured figures). The tests are the fast ones for that module only.
MODULES = (
    Module("games/hexgrid.py", 25, ("tests/test_hexgrid.py", *BIDE, *BEGIRD)),
    Module("games/bide.py", 60, (*BIDE, *ENGINE)),
    # Begird's game (50 mutants when the boards were in it) and its boards (layouts, islands, the win table).
    Module("games/begird.py", 38, (*BEGIRD, *ENGINE)),
    Module("games/begirdboard.py", 12, (*BEGIRD, *ENGINE)),
    # Play Bai's engine in four (50 mutants when it was one file of ~1,400 lines): the game's face (notation,
    # words, the position document, text), the rules of a turn, the turn search and the field.
    Module("games/playbai.py", 16, (*PLAYBAI, *ENGINE)),
    Module("games/playbairules.py", 18, (*PLAYBAI, *ENGINE)),
    Module("games/playbaisearch.py", 12, (*PLAYBAI, *ENGINE)),
    Module("games/playbaifield.py", 4, (*PLAYBAI, *ENGINE)),
    # Bump's engine in three (40 mutants when it was one file of ~1,300 lines): the game's face (notation, the
    # position document, text), its rules (movement, enumeration, the turn) and its words.
    Module("games/bump.py", 20, (*BUMP, *ENGINE)),
    Module("games/bumprules.py", 20, (*BUMP, *ENGINE)),
    Module("games/bumpwords.py", 10, (*BUMP, *ENGINE)),
    Module("games/bumpboard.py", 25, BUMP, fresh=("tests/test_bump.py",)),
    Module("games/bumpresolve.py", 15, (*BUMP, *ENGINE)),
    Module("games/interface.py", 25, (*ENGINE, *BIDE, *BEGIRD, *PLAYBAI, *BUMP)),
    Module("games/registry.py", 15, ENGINE),
    Module("bot/service/core.py", 30, SERVICE),
    Module("bot/service/lobby.py", 30, SERVICE),
    Module("bot/service/play.py", 20, SERVICE),
    Module("bot/service/history.py", 20, SERVICE),
    Module("bot/service/reminders.py", 15, BOT),
    Module("bot/service/preferences.py", 10, SERVICE),
    Module("bot/service/verify.py", 10, SERVICE),
    Module("bot/service/offers.py", 30, BOT),
    Module("bot/service/timelimits.py", 25, BOT),
    Module("bot/service/ratings.py", 20, BOT),
    Module("bot/service/guilds.py", 15, BOT),
    Module("bot/service/challenges.py", 10, BOT),
    Module("bot/service/challenge_limits.py", 10, BOT),
    Module("bot/service/replay_gate.py", 5, BOT),
    Module("bot/service/schedule.py", 10, (*BOT, "tests/test_clock_rules.py")),  # bank clocks: settled_bank
    Module("bot/domain/seats.py", 10, BOT),
    Module("bot/domain/replay.py", 10, BOT),
    # The SQLite store, one module per feature (87 mutants between them; 80 when it was one file of ~1,300 lines)
    *(
        Module(f"bot/store/sqlite/{name}.py", sample, (*BOT, *SQLITE_FEATURE_TESTS.get(name, ())))
        for name, sample in SQLITE_SAMPLES
    ),
    Module("bot/store/rows.py", 20, BOT),
)
#: Modules whose SQL strings mutmut changes in letter case only (equivalent: judged by rule).
SQL_MODULES = tuple(f"bot/store/sqlite/{name}.py" for name, _ in SQLITE_SAMPLES)
DROP_WHERE_TESTS = (
    "tests/test_storage_isolation.py",
    "tests/test_store_contract.py",
    "tests/test_service_outcomes.py",
    "tests/test_mutants_bot.py",
)

KILLED = {1, 3}
TIMEOUT = {36, -24, 24, 152, 255}


def dotted(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def mutant_names(module: Module) -> list[str]:
    meta = json.loads((MUTANTS / f"{module.path}.meta").read_text())
    return list(meta["exit_code_by_key"])


def sample(module: Module) -> list[str]:
    """The module's fixed sample: the first N names in a seeded hash order."""
    order = sorted(mutant_names(module), key=lambda name: hashlib.sha256((SEED + name).encode()).hexdigest())
    return sorted(order[: module.sample])


def listed_equivalent(text: str) -> set[str]:
    """Names in docs/testing.md's table of equivalent mutants of the samples.

    A row may abbreviate further mutants of the same function as `_17`, `_18`.
    """
    start = text.find(EQUIVALENT_HEADING)
    if start < 0:
        return set()
    end = text.find("\n#", start + len(EQUIVALENT_HEADING))
    section = text[start : end if end > 0 else len(text)]
    names: set[str] = set()
    for row in section.splitlines():
        if not row.startswith("|"):
            continue
        prefix = None
        for token in re.findall(r"`([^`]+)`", row.split("|")[1]):
            full = re.fullmatch(r"(.+__mutmut_)\d+", token)
            if full:
                prefix = full.group(1)
                names.add(token)
            elif prefix and re.fullmatch(r"_\d+", token):
                names.add(prefix + token[1:])
    return names


def prepare() -> None:
    """Generate the mutants and record which tests reach which function (mutmut's own steps)."""
    os.chdir(ROOT)
    from mutmut import __main__ as mm
    from mutmut.utils.file_utils import copy_also_copy_files, copy_src_dir, setup_source_paths

    mm.set_mutant_under_test("mutant_generation")
    MUTANTS.mkdir(exist_ok=True)
    copy_src_dir()
    copy_also_copy_files()
    setup_source_paths()
    mm.store_lines_covered_by_tests()
    mm.create_mutants(int(CHILDREN))
    mm.collect_or_load_stats(mm.get_mutant_runner(int(CHILDREN)), apply_config_invalidation=True)


def reselectable(test: str) -> bool:
    """Whether pytest can select this test again in a process that has already collected it.

    A parametrized id holding a backslash (test_damaged_rows' ``b'\\xff'`` cases) is escaped once
    more by every collection after the first in the same process, so mutmut's forked runs (the fork
    server has collected the tests to warm up) answer "not found", exit 4, and ``mutmut run`` stops.
    Such tests stay in the record's durations (so mutmut does not take them for new tests) but run
    for no mutant; tests/test_mutants_bot.py repeats those cases under plain ids.
    """
    return "\\" not in test


def narrow_stats() -> None:
    """Keep, for each module's functions, only the tests of that module's own files (that pytest can reselect)."""
    stats_path = MUTANTS / "mutmut-stats.json"
    stats = json.loads(stats_path.read_text())
    tests_of = {dotted(m.path): set(m.tests) for m in MODULES}
    narrowed = {}
    for function, tests in stats["tests_by_mangled_function_name"].items():
        allowed = tests_of.get(function.rpartition(".")[0])
        tests = [t for t in tests if reselectable(t)]
        narrowed[function] = tests if allowed is None else [t for t in tests if t.split("::")[0] in allowed]
    stats["tests_by_mangled_function_name"] = narrowed
    stats_path.write_text(json.dumps(stats, indent=4))


def set_verdicts(module: Module, verdicts: dict[str, int]) -> None:
    meta_path = MUTANTS / f"{module.path}.meta"
    meta = json.loads(meta_path.read_text())
    meta["exit_code_by_key"].update(verdicts)
    meta_path.write_text(json.dumps(meta, indent=4))


def fresh_recheck(module: Module, names: list[str]) -> dict[str, int]:
    """Run a survivor's tests in a new interpreter, so import-time code runs mutated."""
    verdicts = {}
    for name in names:
        env = {**os.environ, "MUTANT_UNDER_TEST": name, "PY_IGNORE_IMPORTMISMATCH": "1"}
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *module.fresh],
            cwd=MUTANTS,
            env=env,
            capture_output=True,
            text=True,
        )
        # 2 and 4: collection or conftest import failed, i.e. the mutated import-time code crashed: killed.
        verdicts[name] = 1 if run.returncode in (1, 2, 4) else run.returncode
    return verdicts


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Row:
    module: str
    sampled: int
    killed: int
    timeouts: int
    survivors: list[str]
    equivalent: list[str]

    @property
    def score(self) -> str:
        judged = self.sampled - len(self.equivalent)
        if not judged:  # a small module whose every sampled mutant is a listed equivalent (or none was sampled)
            return "none judged"
        return f"{self.killed + self.timeouts}/{judged} = {100 * (self.killed + self.timeouts) / judged:.1f}%"


def run_samples(modules: list[Module], log) -> dict[str, int]:
    """One ``mutmut run`` over every module's sample (one clean-test pass, not one per module)."""
    names = [name for m in modules for name in sample(m)]
    run = subprocess.run(
        [MUTMUT, "run", "--max-children", CHILDREN, *names], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
    )
    if run.returncode != 0:
        sys.exit(f"mutmut run failed (exit {run.returncode}); see {log.name}")
    for module in modules:
        if module.fresh:
            survivors = [n for n, code in verdicts(module).items() if code not in KILLED | TIMEOUT]
            set_verdicts(module, fresh_recheck(module, [n for n in survivors if n in names]))
    return {name: code for m in modules for name, code in verdicts(m).items()}


def verdicts(module: Module) -> dict[str, int]:
    return json.loads((MUTANTS / f"{module.path}.meta").read_text())["exit_code_by_key"]


def only_sql_letter_case(name: str) -> bool:
    """The mutant only changes the letter case of SQL outside its quoted values (equivalent:
    SQLite keywords and identifiers ignore case; docs/testing.md)."""
    diff = subprocess.run([MUTMUT, "show", name], cwd=ROOT, capture_output=True, text=True).stdout.splitlines()
    removed = [line[1:] for line in diff if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]
    return (
        bool(removed)
        and len(removed) == len(added)
        and removed != added
        and all(
            a.lower() == b.lower() and re.findall(r"'[^']*'", a) == re.findall(r"'[^']*'", b)
            for a, b in zip(removed, added, strict=True)
        )
    )


def module_row(module: Module, codes: dict[str, int], equivalent: set[str]) -> Row:
    names = sample(module)
    survivors = [n for n in names if codes[n] not in KILLED | TIMEOUT]
    judged = [n for n in survivors if n in equivalent or (module.path in SQL_MODULES and only_sql_letter_case(n))]
    return Row(
        module.path,
        len(names),
        sum(codes[n] in KILLED for n in names),
        sum(codes[n] in TIMEOUT for n in names),
        survivors,
        judged,
    )


def drop_where(log) -> Row:
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "drop_where.py"), *DROP_WHERE_TESTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    log.write(run.stdout + run.stderr)
    lines = run.stdout.splitlines()
    survivors = [line.split(None, 1)[1] for line in lines if line.startswith("SURVIVED")]
    return Row(
        "drop_where (store WHERE)",
        sum(line.startswith(("KILLED", "SURVIVED")) for line in lines),
        sum(line.startswith("KILLED") for line in lines),
        0,
        survivors,
        [],
    )


def report(rows: list[Row]) -> None:
    print()
    print(f"| {'module':28} | sampled | killed | survived | equivalent-listed | score (killed / non-equivalent) |")
    print(f"|{'-' * 30}|---------|--------|----------|-------------------|---------------------------------|")
    for r in rows:
        killed = f"{r.killed + r.timeouts}" + (f" ({r.timeouts} t/o)" if r.timeouts else "")
        print(
            f"| {r.module:28} | {r.sampled:7} | {killed:6} | {len(r.survivors):8} | {len(r.equivalent):17} "
            f"| {r.score:31} |"
        )
    new = [(r.module, s) for r in rows for s in r.survivors if s not in r.equivalent]
    print()
    if new:
        print(f"NEW survivors (not in docs/testing.md's table of equivalent mutants, nor SQL letter case): {len(new)}")
        for module, name in new:
            print(f"  NEW {name}" + ("" if "mutmut" in name else f"   [{module}]"))
        print("Read one with `mutmut show NAME`; kill it with a test, or list it as equivalent (docs/testing.md).")
    else:
        print("No new survivors: every survivor is listed as equivalent in docs/testing.md.")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--prepare"]:
        prepare()
        return 0
    listing = argv[:1] == ["--list"]
    wanted = [a for a in argv if not a.startswith("--")]
    modules = [m for m in MODULES if not wanted or m.path in wanted]
    if listing:
        print("\n".join(name for m in modules for name in sample(m)))
        return 0
    selection = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"][
        "pytest_add_cli_args_test_selection"
    ]
    missing = {t for m in MODULES for t in m.tests} - set(selection)
    if missing:
        sys.exit(f"add {sorted(missing)} to pytest_add_cli_args_test_selection in pyproject.toml")
    started, cpu = time.monotonic(), children_cpu()
    log_path = ROOT / "mutants" / "mutation-run.log"
    if not (MUTANTS / "mutmut-stats.json").exists():
        print("Generating mutants and recording which tests reach each function…", flush=True)
        MUTANTS.mkdir(exist_ok=True)
        with open(log_path, "a") as log:
            prepared = subprocess.run([sys.executable, __file__, "--prepare"], cwd=ROOT, stdout=log, stderr=log)
        if prepared.returncode != 0:
            # mutmut records the tests only if they all pass in its copy, mutants/ (with no mutant switched on)
            sys.exit(
                f"generating the mutants or recording the tests failed (exit {prepared.returncode}); see {log_path}. "
                "A test failing in mutmut's copy stops it: cd mutants && MUTANT_UNDER_TEST= python -m pytest -x "
                + " ".join(selection)
            )
        narrow_stats()
        print(f"  done in {(time.monotonic() - started) / 60:.1f} min", flush=True)
    equivalent = listed_equivalent(DOCS.read_text())
    with open(log_path, "a") as log:
        count = sum(m.sample for m in modules)
        print(f"Running {count} mutants of {len(modules)} modules, each against its module's tests…", flush=True)
        codes = run_samples(modules, log)
        rows = [module_row(m, codes, equivalent) for m in modules]
        print(f"  done in {(time.monotonic() - started) / 60:.1f} min", flush=True)
        if not wanted:
            print("tools/drop_where.py: every WHERE condition of the SQLite store dropped in turn…", flush=True)
            rows.append(drop_where(log))
    report(rows)
    wall = time.monotonic() - started
    total = sum(r.sampled for r in rows if "drop_where" not in r.module)
    print(
        f"\nWall {wall / 60:.1f} min, CPU of mutmut and tests {(children_cpu() - cpu) / 60:.1f} min, "
        f"{total / (wall / 60):.1f} mutants a minute (mutmut's log: {log_path.relative_to(ROOT)})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
