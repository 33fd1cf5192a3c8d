/**
 * Input text that no field of the API accepts: a NUL character (PostgreSQL text cannot hold
 * one: the query failed with a 500), a lone UTF-16 surrogate (not encodable as UTF-8: the same), and the Unicode
 * bidirectional controls (U+202A-U+202E, U+2066-U+2069: "RTL override" spoofing of names and addresses, Trojan
 * Source, CVE-2021-42574). Overlong UTF-8 sequences never get here: Node decodes them to U+FFFD.
 */

/** Why a string is refused, or null when it is acceptable. */
export type BadText = 'nul' | 'lone_surrogate' | 'bidi_control';

/** The first reason `s` is not acceptable input text, or null. */
export function badText(s: string): BadText | null {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return 'nul';
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (next < 0xdc00 || next > 0xdfff) return 'lone_surrogate';
      i++;
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return 'lone_surrogate';
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return 'bidi_control';
  }
  return null;
}
