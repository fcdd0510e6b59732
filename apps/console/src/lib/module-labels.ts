import { MODULE_LABELS, type Locale, type ModuleSlug } from '@kontrol/contracts';
import { getLocale } from './i18n';

/** The sidebar label of a module (docs/contract.md, "Screens and routes") in `language`, by default the interface's. */
export function moduleLabel(slug: ModuleSlug, language: Locale = getLocale()): string {
  return MODULE_LABELS[slug][language];
}
