// The sandbox page's own words in the player's language (amelie's Discord speaks French, so her page does too).
// Every sentence the page shows is English inside say("…") or sayN("…", "…", count): `make translations` collects
// them into the bot's catalogs (i18n/locale) beside the Activity's, and the page asks the sandbox for their
// translations (/api/words) before it draws anything. Fields are named, so a translation may reorder them. Plain
// JavaScript, no build step: loaded before app.js and activity.js.
"use strict";

// ``elide``: French elides "de", "que"… before a vowel-initial name ("Jouer en tant qu’alice"), by the one rule the
// bot's sentences (i18n.fill) and the Activity's page follow: the Activity's module, which the sandbox serves as
// /lib/elision.js and loadWords imports. English elides nothing.
const Words = { language: "en", catalog: {}, elide: (language, text) => text };

function fillWords(text, fields) {
  return Words.elide(Words.language, text, fields).replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole))
    .replace(/\{\{/g, "{").replace(/\}\}/g, "}");
}

/** One sentence, translated, its {fields} filled. */
function say(english, fields = {}) {
  const found = Words.catalog[english];
  return fillWords(typeof found === "string" ? found : english, fields);
}

/** A sentence that counts: the plural form the language's own rule picks (CLDR, as the catalogs' Babel). */
function sayN(singular, plural, count, fields = {}) {
  const forms = Words.catalog[singular];
  const index = new Intl.PluralRules(Words.language).select(count) === "one" ? 0 : 1;
  const text = Array.isArray(forms) ? forms[Math.min(index, forms.length - 1)] : (index === 0 ? singular : plural);
  return fillWords(text, { count, ...fields });
}

/** The player's language and its sentences, from the sandbox (English, the source, needs none). */
async function loadWords(user) {
  try {
    const response = await fetch(`/api/words?user=${encodeURIComponent(user)}`);
    if (response.ok) Object.assign(Words, await response.json());
    if (Words.language !== "en") Words.elide = (await import("/lib/elision.js")).elide;
  } catch {
    // the page still works, in English
  }
  document.documentElement.lang = Words.language;
  return Words.language;
}
