import {
  DEFAULT_LOCALE,
  FALLBACK_LOCALE,
  LOCALE_COOKIE,
  LOCALES,
  STORAGE_KEYS,
  isLocale,
  type Locale,
} from '@kontrol/contracts';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type ruAccount from '../locales/ru/account.json';
import type en from '../locales/en/translation.json';
import ru from '../locales/ru/translation.json';

/**
 * Keys are the English sentences themselves (so a missing translation still reads well), which is
 * why the key and namespace separators are off: sentences contain dots and colons. The English
 * catalogue maps every key to itself (a test holds it so): it lists the keys for the types and is
 * not bundled, as i18next answers a key it has no text for with the key, interpolated.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    keySeparator: false;
    nsSeparator: false;
    resources: { translation: typeof en };
  }
}

/**
 * The Russian texts come in two files (scripts/split-locales.mjs): the shell's, bundled with the
 * first page, and the account screens', loaded with the account layout ({@link loadAccountTexts}).
 * Every key of the English catalogue must have a Russian text in one of them, or the build fails here.
 */
function completeRussian(texts: typeof ru & typeof ruAccount): Record<keyof typeof en, string> {
  return texts;
}

function readStoredLocale(): Locale | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEYS.locale);
    return isLocale(stored) ? stored : null;
  } catch {
    // Storage can be unavailable (privacy modes); the default language still works.
    return null;
  }
}

function storeLocale(locale: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEYS.locale, locale);
  } catch {
    // Not remembered across visits, but the switch still applies to this page.
  }
}

/**
 * The language mirrored into a cookie for the server, which writes a signed-in visitor's account
 * frame in it before any script runs (apps/api plugins/console.ts). A year, the whole site.
 */
function mirrorLocale(locale: string): void {
  document.cookie = `${LOCALE_COOKIE}=${encodeURIComponent(locale)}; path=/; max-age=31536000; samesite=lax`;
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  // A copy: the account texts are merged into it later, and the imported module must stay as it is.
  resources: { ru: { translation: { ...ru } }, en: { translation: {} } },
  lng: readStoredLocale() ?? DEFAULT_LOCALE,
  fallbackLng: FALLBACK_LOCALE,
  supportedLngs: LOCALES,
  keySeparator: false,
  nsSeparator: false,
  // Resources are bundled, so initialisation is synchronous and the first render is translated.
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes.
  returnNull: false,
});

document.documentElement.lang = i18n.language;
mirrorLocale(i18n.language);
i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
  mirrorLocale(language);
});

let accountTexts: Promise<void> | undefined;

/**
 * Adds the account screens' Russian texts (once; the account layout's route waits for it, so no
 * account screen renders before its texts are there). Needed whatever the language now: the user
 * may switch to Russian later.
 */
export function loadAccountTexts(): Promise<void> {
  accountTexts ??= import('../locales/ru/account.json')
    .then(({ default: account }) => {
      // A shallow merge of a bundle i18next need not copy: the keys are flat (no key separator),
      // and the deep merge of a copy was a long task on a slow phone.
      i18n.addResourceBundle('ru', 'translation', completeRussian({ ...ru, ...account }), false, true, {
        skipCopy: true,
      });
    })
    .catch((error: unknown) => {
      accountTexts = undefined;
      throw error;
    });
  return accountTexts;
}

/** The interface language now in use; always one of LOCALES. */
export function getLocale(): Locale {
  const language = i18n.resolvedLanguage ?? i18n.language;
  return isLocale(language) ? language : DEFAULT_LOCALE;
}

/** Switches the interface language and remembers the choice for the next visit. */
export async function setLocale(locale: Locale): Promise<void> {
  storeLocale(locale);
  await i18n.changeLanguage(locale);
}
