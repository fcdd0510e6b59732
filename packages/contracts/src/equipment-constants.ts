// Kept free of zod so the console's first bundle can name device types without evaluating the
// validator (equipment.ts holds the schemas).

/** What a device type may report (the telemetry issue reads these). */
export const TELEMETRY_KINDS = [
  'current',
  'temperature',
  'core_temperature',
  'humidity',
  'door',
  'state',
  'wash',
] as const;
export type TelemetryKind = (typeof TELEMETRY_KINDS)[number];

/** The seeded reference list of device types (slugs are stable; names come per language). */
export const DEVICE_TYPE_SLUGS = [
  'combi_oven',
  'convection_oven',
  'fryer',
  'dishwasher',
  'refrigerator',
  'freezer',
  'blast_chiller',
  'induction_hob',
  'other',
] as const;
export type DeviceTypeSlug = (typeof DEVICE_TYPE_SLUGS)[number];

/**
 * The seeded types' names in both languages (the database holds the same pair, and a test holds
 * the two together): the console names a type by its slug in the interface language, whatever
 * language the list was read in (a preloaded list follows the browser's, not the console's).
 */
export const DEVICE_TYPE_LABELS: Record<DeviceTypeSlug, { ru: string; en: string }> = {
  combi_oven: { ru: 'Пароконвектомат', en: 'Combi oven' },
  convection_oven: { ru: 'Конвекционная печь', en: 'Convection oven' },
  fryer: { ru: 'Фритюрница', en: 'Fryer' },
  dishwasher: { ru: 'Посудомоечная машина', en: 'Dishwasher' },
  refrigerator: { ru: 'Холодильный шкаф', en: 'Refrigerator' },
  freezer: { ru: 'Морозильный шкаф', en: 'Freezer' },
  blast_chiller: { ru: 'Шкаф шоковой заморозки', en: 'Blast chiller' },
  induction_hob: { ru: 'Индукционная плита', en: 'Induction hob' },
  other: { ru: 'Другое оборудование', en: 'Other equipment' },
};
