// The page's words in the player's language. Every sentence the page shows is English inside say("…") or
// sayN("…", "…", count): `make translations` collects them into the bot's catalogs (i18n/locale), and the
// build bundles their translations (words.json, written by tools/activity_words.py). Fields are named as in
// the bot's sentences ("{name} to move"), so a translation may reorder them. The board's own words (cell
// names, the panel, the server's refusals) arrive already translated from the server.
import catalogs from "../words.json";
import { elide } from "./elision.js";

let language = "en";

/** The language the page speaks from now on: a Discord locale or language code ("fr", "en-US"). */
export function speak(locale) {
  const base = String(locale || "en").replace("_", "-").split("-")[0].toLowerCase();
  language = base in catalogs ? base : "en";
  document.documentElement.lang = language;
  return language;
}

export function speaking() {
  return language;
}

function fill(text, fields) {
  return elide(language, text, fields).replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole))
    .replace(/\{\{/g, "{").replace(/\}\}/g, "}");
}

/** One sentence, translated, with its {fields} filled. */
export function say(english, fields = {}) {
  const found = (catalogs[language] || {})[english];
  return fill(typeof found === "string" ? found : english, fields);
}

/** A sentence that counts: the plural form the language's own rule picks (CLDR, as the catalogs' Babel). */
export function sayN(singular, plural, count, fields = {}) {
  const forms = (catalogs[language] || {})[singular];
  const rule = new Intl.PluralRules(language).select(count);
  const index = rule === "one" ? 0 : 1;
  const text = Array.isArray(forms) ? forms[Math.min(index, forms.length - 1)] : (index === 0 ? singular : plural);
  return fill(text, { count, ...fields });
}
