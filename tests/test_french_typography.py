"""French typography over the whole French catalog (issue 37): the space before « ; : ! ? », and elision before a
name ("au tour de amelie" must read "au tour d’amelie").

The rule this project keeps: a narrow no-break space (U+202F, the "espace fine insécable") before each of « ; », « : »,
« ! » and « ? », never a plain space (a line could break before the sign) nor none. Code spans, fields, mentions,
Discord's timestamps, links and times (``22:00``) are not prose and keep their own punctuation.

Elision is made when a sentence is said (``i18n.fill``): the translator writes "de {player}", and a name that begins
with a vowel makes it "d’amelie". Every entry is said here with every field a vowel-initial name, as the bot would
say it, and must never read "de amelie".
"""

from __future__ import annotations

import re

import pytest

from i18n import pt, speaking, t, tn
from tests.test_translations import FRENCH

NARROW = "\u202f"
PUNCTUATION = ";:!?"
# What is not French prose: code spans, Discord's <…> (mentions, timestamps, links), fields, bare links, times.
NOT_PROSE = re.compile(r"```.*?```|`[^`]*`|<[^<>]*>|\{[^{}]*\}|https?://\S+|\d:\d", re.S)
# A word French elides, written whole before a vowel-initial word: "de amelie", "que une", "de **Émile**".
UNELIDED = re.compile(
    r"(?<![\w’'])(?:[Dd]e|[Qq]ue|[Jj]usque|[Ll]orsque|[Pp]uisque) (?:\*\*|__|\*|_)*"
    r"[aeiouyàâéèêëîïôûœæAEIOUYÀÂÉÈÊÎÔÛ]\w"
)
NAME = "amelie"


def french_strings():
    """(English id, French string) for every French string of the catalog, each plural form on its own."""
    for message in FRENCH:
        if not message.id:
            continue
        english = message.id[0] if isinstance(message.id, tuple) else message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            yield english, form


def typography_faults(french: str) -> list[str]:
    """Each « ; : ! ? » of the prose not preceded by a narrow no-break space, shown in its context."""
    prose = NOT_PROSE.sub("X", french)
    faults = []
    for hit in re.finditer(f"[{re.escape(PUNCTUATION)}]", prose):
        before = prose[hit.start() - 1] if hit.start() else ""
        if before != NARROW and before not in PUNCTUATION:
            faults.append(prose[max(0, hit.start() - 20) : hit.end() + 5])
    return faults


def test_the_typography_check_tells_right_from_wrong():
    assert typography_faults(f"Partie terminée{NARROW}: nulle{NARROW}; bravo{NARROW}!") == []
    assert len(typography_faults("Partie terminée : nulle")) == 1
    assert typography_faults("Partie terminée\u00a0: nulle")  # a full no-break space is not the rule kept
    assert typography_faults("Partie terminée: nulle")
    assert typography_faults("{player}: {counts}")  # after a field too
    assert typography_faults(f"`etape: nouveau`, <t:123:R>, 22:00, https://discord.com/x?y=1{NARROW}?") == []


def test_every_french_sentence_has_a_narrow_no_break_space_before_semicolons_colons_and_marks():
    faults = {english: found for english, french in french_strings() if (found := typography_faults(french))}
    assert faults == {}, f"{len(faults)} French sentences break the rule: {list(faults.items())[:8]}"


def fields_of(template: str) -> list[str]:
    return sorted({m.group(1) for m in re.finditer(r"\{(\w+)(?:[!:][^{}]*)?\}", template)})


def said_with_names(message) -> list[str]:
    """The entry said in French as the bot says it (through t, tn or pt), every field a vowel-initial name."""
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    names = {field: NAME for field in fields_of(" ".join(ids)) if field != "count"}
    with speaking("fr"):
        if isinstance(message.id, tuple):
            return [tn(ids[0], ids[1], count, **names) for count in (1, 2)]
        if message.context:
            return [pt(message.context, ids[0], **names)]
        return [t(ids[0], **names)]


def test_a_name_after_de_or_que_is_elided_in_every_french_sentence():
    unelided = {}
    for message in FRENCH:
        if not message.id:
            continue
        try:
            said = said_with_names(message)
        except (ValueError, KeyError, IndexError):  # a field with a number's format: no name goes there
            continue
        found = [hit.group() for text in said for hit in UNELIDED.finditer(text)]
        if found:
            unelided[str(message.id)] = found
    assert unelided == {}, f"{len(unelided)} French sentences say 'de' before a vowel: {list(unelided.items())[:8]}"


@pytest.mark.parametrize(
    "name, expected",
    [
        ("amelie", "Au tour d’amelie"),
        ("**Émile** (Rouge)", "Au tour d’**Émile** (Rouge)"),
        ("bob", "Au tour de bob"),
        ("<@42>", "Au tour de <@42>"),  # a mention: Discord shows a name the bot cannot see
    ],
)
def test_elision_is_made_by_the_name_said(name, expected):
    from i18n import fill

    assert fill("Au tour de {player}", {"player": name}, "fr") == expected
    assert fill("Turn of {player}", {"player": name}, "en") == f"Turn of {name}"
    assert fill("La case de {cell}", {"cell": "e5"}, "fr") == "La case de e5"  # a cell name is not elided


ELISION_CASES = [
    ("Au tour de {name}", "amelie"),
    ("Au tour de {name}", "bob"),
    ("Au tour de **{name}**", "Émile"),
    ("Au tour de {name}", "**amelie** (Rouge)"),
    ("La case de {name}", "e5"),
    ("plus que {name}", "ines"),
    ("De {name} vient", "Yves"),
    ("Au tour de {name}", "<@42>"),
]


def elided_by_node(module: str, call: str) -> list[str]:
    """Each case of ELISION_CASES filled by a page's JavaScript (``call`` on the module's ``elide``), in French."""
    import json
    import shutil
    import subprocess

    from tests.sources import ROOT

    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed (apt-get install nodejs)")
    script = f"{module}\nconst cases = {json.dumps(ELISION_CASES)};\nconsole.log(JSON.stringify(cases.map({call})));"
    run = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_activity_page_elides_as_the_bot_does():
    from i18n import fill

    expected = [fill(text, {"name": name}, "fr") for text, name in ELISION_CASES]
    assert expected[:3] == ["Au tour d’amelie", "Au tour de bob", "Au tour d’**Émile**"]
    said = elided_by_node(
        'import { elide } from "./activity/src/elision.js";',
        '([text, name]) => elide("fr", text, { name }).replace("{name}", name)',
    )
    assert said == expected
