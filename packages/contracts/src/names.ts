import { z } from 'zod';

/**
 * The rule for names of people and organisations (docs/security.md, "Names"). A name is shown to
 * other people — in the console, in e-mails that greet by it, in Telegram — so it must read as a
 * name and nothing else: it may not carry a link, an e-mail address or characters that are not
 * seen (controls, direction overrides). Everything else a name can hold is allowed: any script,
 * digits, punctuation, «ООО «Ромашка»», "Cafe 1.5", "Dr.Smith", "Яндекс.Еда".
 */

/**
 * C0 controls (tab and line breaks included), DEL, C1 controls, the line and paragraph separators,
 * and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
 * can make a name display as something other than what it is.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** `user@host.tld`: an address a mail client would make a link of. */
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/u;

/** A scheme with `//` (`http://`, `HTTPS://`, `ftp://`), or `www.` at the start of a word. */
const URL_START = /(?:[a-z][a-z0-9+.-]*:\/\/|(?:^|[^\p{L}\p{N}])www\.)/iu;

/** Four dotted numbers: an IPv4 address. */
const IPV4 = /(?:^|[^\p{N}.])\d{1,3}(?:\.\d{1,3}){3}(?![\p{N}])/u;

/**
 * Top-level domains a bare name is refused for, as mail clients and chat apps make a link of
 * `name.tld` without a scheme: any two Latin letters (the country domains), and the generic ones
 * in common use and abuse. A word after a dot that is not among them (`Dr.Smith`, `Яндекс.Еда`,
 * `1.5`) keeps the name a name.
 */
const TLDS =
  'com|net|org|info|biz|edu|gov|mil|int|name|pro|mobi|app|dev|xyz|top|site|online|store|shop|' +
  'club|live|life|link|click|zip|mov|tech|space|website|fun|icu|vip|work|today|news|blog|cloud|' +
  'email|page|one|world|best|ltd|group|company|moscow|рф|рус|орг|ком|сайт|онлайн|москва|дети';
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';
/** `evil.com`, `Evil.COM/x`, `ромашка.рф`, `a.b.example.io:8080`: a host a reader would follow. */
const BARE_DOMAIN = new RegExp(
  `(?:^|[^\\p{L}\\p{N}.@-])${LABEL}(?:\\.${LABEL})*\\.(?:[a-z]{2}|${TLDS})(?![\\p{L}\\p{N}-])`,
  'iu',
);

/** Why a name is refused: the catalog message of the first rule it breaks, or null for a name. */
export function nameProblem(
  value: string,
): 'field.name_control' | 'field.name_email' | 'field.name_link' | null {
  if (CONTROL.test(value)) return 'field.name_control';
  // Compatibility forms read as their plain selves (full-width "ｈｔｔｐ：／／", "．com").
  const plain = value.normalize('NFKC').replace(/[\u3002\uff61]/gu, '.');
  if (EMAIL.test(plain)) return 'field.name_email';
  if (URL_START.test(plain) || IPV4.test(plain) || BARE_DOMAIN.test(plain)) return 'field.name_link';
  return null;
}

/**
 * A person's or an organisation's name: trimmed, 1 to `max` characters, and {@link nameProblem}
 * finds nothing. 422 on the field with the rule's message in the request's language.
 */
export function nameSchema(max: number) {
  return z.string().trim().min(1).max(max).superRefine(refuseNonName);
}

/** The check of {@link nameSchema} for a schema of its own (an optional name, null when empty). */
export function refuseNonName(value: string | null | undefined, ctx: z.RefinementCtx<unknown>) {
  const key = typeof value === 'string' ? nameProblem(value) : null;
  if (key) ctx.addIssue({ code: 'custom', params: { key }, input: value });
}
