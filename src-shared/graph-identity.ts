/**
 * When two graph labels (nicknames and names) mean the same graph to an agent, and which
 * nicknames are refused (docs/mcp.md, "Nicknames"). Labels are compared after Unicode NFKC and
 * case folding, ignoring invisible characters, so `Work`, full-width `Ｗork` and `WORK` are one
 * label and NFC/NFD spellings of `Café` too. NFKC does not unify look-alike letters of different
 * alphabets (Cyrillic `о` in `Wоrk`), so a nickname may not mix Latin, Greek and Cyrillic
 * letters, and may not contain invisible or control characters at all.
 */

/** Control, format (zero-width, bidi), unassigned, private-use and other invisible characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
/** Emoji sequences legitimately hold invisible joiners (ZWJ) and variation selectors. */
const EMOJI_SEQUENCE =
  /\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0F]?(?:\u200D\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0F]?)*/gu;
/** The alphabets whose letters look alike (a, e, o, p, c, x, ...). */
const LOOKALIKE_SCRIPTS: ReadonlyArray<[string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
];

/** The comparison form of a nickname or name: two labels are the same graph iff their keys are equal. */
export function labelKey(label: string): string {
  // Upper then lower case folds what lowercasing alone keeps apart (ß/SS, final sigma).
  const folded = label.normalize('NFKC').replace(IGNORABLE, '').toUpperCase().toLowerCase();
  return folded.normalize('NFKC').trim().replace(/\s+/gu, ' ');
}

/** Why this nickname is refused (completing "The nickname 'x' …"), or undefined when it is fine. */
export function nicknameProblem(nickname: string): string | undefined {
  const hidden = [...nickname.replace(EMOJI_SEQUENCE, '')].find((char) => INVISIBLE.test(char));
  if (hidden) {
    return `contains an invisible or control character (${codePoint(hidden)}), so it cannot be told apart from one without it. Retype it`;
  }
  const normalized = nickname.normalize('NFKC');
  const scripts = LOOKALIKE_SCRIPTS.filter(([, letters]) => letters.test(normalized)).map(([name]) => name);
  if (scripts.length > 1) {
    return `mixes ${scripts.join(' and ')} letters, which can look identical (Cyrillic 'о' and Latin 'o'). Write it in one alphabet`;
  }
  return undefined;
}

/** A label safe to show in a message: invisible characters spelled out as <U+XXXX>. */
export function printableLabel(label: string): string {
  return [...label].map((char) => (INVISIBLE.test(char) ? `<${codePoint(char)}>` : char)).join('');
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
