// French elides "de", "que"… before a vowel-initial name: the translator writes "Au tour de {name}", and the page
// says "Au tour d’amelie" once it knows the name, by the rule the bot's own sentences follow (i18n.fill): the word
// right before a field, when the field's value starts with a vowel and a letter (a name; not a cell like "e5").
const ELIDABLE = {
  fr: /(^|[^\p{L}\p{N}’'])([Dd]e|[Qq]ue|[Jj]usque|[Ll]orsque|[Pp]uisque) ((?:\*\*|__|\*|_)*)\{(\w+)\}/gu,
};
const NAME_WITH_A_VOWEL = /^[aeiouyàâäéèêëîïôöùûüÿæœ]\p{L}/iu;

/** ``text`` (a template, its fields not yet filled) with the language's elisions made for these ``fields``. */
export function elide(language, text, fields) {
  const pattern = ELIDABLE[language];
  if (!pattern) return text;
  return text.replace(pattern, (whole, lead, word, mark, name) => {
    const value = String(fields[name] ?? "").replace(/^[*_~`\\|]+/, "");
    return NAME_WITH_A_VOWEL.test(value) ? `${lead}${word.slice(0, -1)}’${mark}{${name}}` : whole;
  });
}
