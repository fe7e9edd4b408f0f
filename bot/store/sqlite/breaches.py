"""The rows behind SQLite's constraint findings, and the match or event each belongs to.

``PRAGMA quick_check`` reports a row that breaks a CHECK or NOT NULL constraint (written with the
constraints off: a hand edit, a damaged page that still parses) only by its table: "CHECK constraint
failed in matches", "NULL value in seats.name". Such a row is not damage to the file: the file reads, and
the fault is one value of one row, like an unreadable value. So the rows are found here (each table's own
CHECK expressions and NOT NULL columns, read from the schema, evaluated as SQLite evaluates them) and
named with their owner, so that the service sets that match or event aside and the bot starts, where it
used to refuse to start and send the operator to a backup (issue 34, item 4).

It only reads: it runs on the store's connection before the migrations, or on the integrity check's own
connection beside a large file (``query_only``: a read-only connection's quick_check skips CHECK constraints).
"""

from __future__ import annotations

import re
import sqlite3

from ...domain.model import ConstraintBreach

# quick_check's words for a row that breaks a constraint; anything else it says is damage to the file.
_CHECK_FINDING = re.compile(r"^CHECK constraint failed in (?P<table>\w+)$")
_NULL_FINDING = re.compile(r"^NULL value in (?P<table>\w+)\.(?P<column>\w+)$")
# quick_check stops after this many findings: when it does, every table is searched, not just those named.
FINDINGS_LIMIT = 100
_KEYWORD_CHECK = re.compile(r"check\b", re.IGNORECASE)


def constraint_tables(findings: list[str]) -> set[str] | None:
    """The tables quick_check names in constraint findings; None if any finding is something else (damage)."""
    tables = set()
    for finding in findings:
        found = _CHECK_FINDING.match(finding) or _NULL_FINDING.match(finding)
        if found is None:
            return None
        tables.add(found["table"])
    return tables


def find_breaches(conn: sqlite3.Connection, findings: list[str]) -> list[ConstraintBreach] | None:
    """Every row of the tables quick_check named (all tables if it stopped at its limit) that breaks one of
    its table's CHECK or NOT NULL constraints, with its owner. None when a finding is not a constraint's, or
    a table it names shows no such row: that is not one row's fault, and opening refuses as before."""
    named = constraint_tables(findings)
    if named is None:
        return None
    searched = named | (set(_tables(conn)) if len(findings) >= FINDINGS_LIMIT else set())
    breaches: list[ConstraintBreach] = []
    for table in sorted(searched):
        found = _table_breaches(conn, table)
        if not found and table in named:
            return None
        breaches.extend(found)
    return breaches


def _tables(conn: sqlite3.Connection) -> list[str]:
    query = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    return [r[0] for r in conn.execute(query)]


def _table_breaches(conn: sqlite3.Connection, table: str) -> list[ConstraintBreach]:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
    if row is None or not row[0]:
        return []
    columns = {r[1]: bool(r[3]) for r in conn.execute(f'PRAGMA table_info("{table}")')}
    owner = _owner_column(table, columns)
    rules = [(f"CHECK ({expression})", f"NOT ({expression})") for expression in check_expressions(row[0])]
    rules += [(f"{column} NOT NULL", f'"{column}" IS NULL') for column, not_null in columns.items() if not_null]
    found: dict[int, ConstraintBreach] = {}
    for rule, breaking in rules:
        picked = f'"{owner[1]}"' if owner is not None else "NULL"
        try:
            hits = conn.execute(f'SELECT rowid, {picked} FROM "{table}" WHERE {breaking}').fetchall()
        except sqlite3.Error:  # an expression this reading of the schema got wrong: no row named by it
            continue
        for rowid, owner_id in hits:
            if rowid in found:
                continue
            readable = owner_id if isinstance(owner_id, int) and not isinstance(owner_id, bool) else None
            found[rowid] = ConstraintBreach(
                table=table,
                rowid=rowid,
                rule=" ".join(rule.split()),
                match_id=readable if owner is not None and owner[0] == "match" else None,
                tournament_id=readable if owner is not None and owner[0] == "tournament" else None,
            )
    return [found[rowid] for rowid in sorted(found)]


def _owner_column(table: str, columns: dict[str, bool]) -> tuple[str, str] | None:
    """(owner kind, column naming it) for a table's rows: an event's rows belong to the event, a match's to
    the match; other tables (players' settings, ratings, the bot's own bookkeeping) belong to neither."""
    if table == "tournaments":
        return "tournament", "id"
    if "tournament_id" in columns:
        return "tournament", "tournament_id"
    if table == "matches":
        return "match", "id"
    if "match_id" in columns:
        return "match", "match_id"
    return None


def check_expressions(create_sql: str) -> list[str]:
    """The expressions of every CHECK constraint in a CREATE TABLE statement (column and table ones), read past
    string literals, quoted names and comments."""
    expressions = []
    i, n = 0, len(create_sql)
    while i < n:
        skipped = _skip_quoted(create_sql, i)
        if skipped != i:
            i = skipped
            continue
        word = _KEYWORD_CHECK.match(create_sql, i)
        if word and (i == 0 or not (create_sql[i - 1].isalnum() or create_sql[i - 1] == "_")):
            j = word.end()
            while j < n and create_sql[j].isspace():
                j += 1
            if j < n and create_sql[j] == "(":
                end = _closing(create_sql, j)
                if end is None:
                    break
                expressions.append(create_sql[j + 1 : end].strip())
                i = end + 1
                continue
        i += 1
    return expressions


def _closing(text: str, opening: int) -> int | None:
    """The index of the parenthesis that closes the one at ``opening``."""
    depth, i = 0, opening
    while i < len(text):
        skipped = _skip_quoted(text, i)
        if skipped != i:
            i = skipped
            continue
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _skip_quoted(text: str, i: int) -> int:
    """Past a string literal, a quoted name or a comment starting at ``i``; ``i`` if none starts there."""
    if text.startswith("--", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end + 1
    if text.startswith("/*", i):
        end = text.find("*/", i + 2)
        return len(text) if end < 0 else end + 2
    closing = {"'": "'", '"': '"', "`": "`", "[": "]"}.get(text[i])
    if closing is None:
        return i
    j = i + 1
    while j < len(text):
        if text[j] == closing:
            if closing in "'\"`" and j + 1 < len(text) and text[j + 1] == closing:  # a doubled quote
                j += 2
                continue
            return j + 1
        j += 1
    return len(text)
