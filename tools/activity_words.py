"""The Activity page's words from the catalogs: ``activity/words.json`` for the page's build.

    python tools/activity_words.py   # the Makefile runs it before bundling the page (make activity)

The page marks what it says with ``say("…")`` and ``sayN("…", "…", count)`` (activity/src/words.js);
``make translations`` collects those calls into the catalogs with the bot's sentences (tools/translations.py),
so a translator sees them in the same file. This writes, for each language with a catalog, the page's
sentences and their translations (plural ones as a list of forms), which the bundle carries: the page
hard-codes no sentence and needs no request for its words.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from i18n import LANGUAGES, sentences_of  # noqa: E402

PAGE_SOURCES = "activity/src/"
OUTPUT = ROOT / "activity" / "words.json"


def page_words(language: str) -> dict[str, str | list[str]]:
    """The translated sentences the page says, by their English (a plural one by its singular)."""
    return sentences_of(language, PAGE_SOURCES)


def main() -> int:
    words = {language: page_words(language) for language in LANGUAGES[1:]}
    text = json.dumps(words, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
        OUTPUT.write_text(text, encoding="utf-8")
    print(f"{OUTPUT.relative_to(ROOT)}: " + ", ".join(f"{len(w)} sentences in {lang}" for lang, w in words.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
