import { MODULE_LABELS, type ModuleSlug } from '@kontrol/contracts';
import { getLocale } from './i18n';

/** The sidebar label of a module (docs/contract.md, "Screens and routes") in the interface language. */
export function moduleLabel(slug: ModuleSlug): string {
  return MODULE_LABELS[slug][getLocale()];
}
