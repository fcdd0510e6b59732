/** Business constants of docs/contract.md, "Constants and limits", shared by the server, the console and the tests. */
export const DEFAULT_LOCALE = 'ru';
export const FALLBACK_LOCALE = 'en';
export const LOCALES = ['ru', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * Whether `value` names an interface language. Here rather than beside the server's messages, so
 * the console's first bundle, which needs it, does not carry the message catalogue.
 */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export const STORAGE_KEYS = { locale: 'locale', guest: 'guest' } as const;
/**
 * The cookie the console mirrors its language into (the choice itself lives in local storage,
 * which the server cannot read), so the server writes an account page's frame in that language.
 */
export const LOCALE_COOKIE = 'kontrol_locale';
export const GUEST_FLAG = { guest: 'isGuest', notGuest: 'isNotGuest' } as const;

export const API_BASE_PATH = '/api';
/**
 * What the server writes into an account page for the console to read (docs/console-shell.md):
 * the element holding the signed-in user as a JSON data block, and the attribute marking the
 * preloaded API reads the console takes over.
 */
export const INLINE_USER_ELEMENT_ID = 'kontrol-user';
export const EARLY_FETCH_ATTRIBUTE = 'data-early';

/**
 * What the console's build writes beside its files for the server (docs/console-shell.md, "Styles
 * and the first bundle"): per account page, by its path one level below `/account/`, and for the
 * account frame itself, the scripts and stylesheets it needs that the first bundle does not load.
 * The server preloads them in the account page it sends; it is never served (a dot folder).
 */
export const CONSOLE_PRELOADS_FILE = '.vite/preloads.json';
export interface ConsolePreloads {
  /** Paths relative to the console's root, as the page links them (`assets/…`). */
  frame: { scripts: string[]; styles: string[] };
  pages: Record<string, { scripts: string[]; styles: string[] }>;
}
/** Statuses that sign a signed-in user out (docs/contract.md, "Error catalogue", "Constants and limits"). */
export const LOGOUT_STATUSES = [401, 419] as const;
export const HTTP_TIMEOUT_MS = 0;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** The longest message to support (docs/support-messages.md). */
export const SUPPORT_MESSAGE_MAX_LENGTH = 4000;
/** How often the console asks for the unread support messages count while signed in. */
export const SUPPORT_UNREAD_POLL_MS = 60_000;

/** A device is offline when it was last online longer ago than this, or never (docs/contract.md, "States and transitions"). */
export const OFFLINE_THRESHOLD_MINUTES = 1440;
/** Slow-start comparison threshold against the current UTC time (docs/contract.md, "States and transitions"). */
export const WORK_START_THRESHOLD_MINUTES = 0;
