import { MODULE_LABELS, type Locale } from '@kontrol/contracts';

/**
 * The label of an access module in the interface language (SPEC §2 sidebar). A slug the console
 * does not know yet (a newer server) shows the server's own name for it.
 */
export function getModuleLabel(module: { slug: string; name: string }, locale: Locale): string {
  const labels = (MODULE_LABELS as Partial<Record<string, { ru: string; en: string }>>)[module.slug];
  return labels ? labels[locale] : module.name;
}
