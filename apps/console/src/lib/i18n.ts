import {
  DEFAULT_LOCALE,
  FALLBACK_LOCALE,
  LOCALES,
  STORAGE_KEYS,
  isLocale,
  type Locale,
} from '@kontrol/contracts';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
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

/** Every key of the English catalogue must have a Russian text, or the build fails here. */
const russian: Record<keyof typeof en, string> = ru;

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

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { ru: { translation: russian }, en: { translation: {} } },
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
i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

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
