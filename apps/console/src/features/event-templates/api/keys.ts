/**
 * Query keys of current templates. The list itself is reference data
 * (`['reference', 'deviceEventTemplates']`, docs/contract.md, "Product and areas").
 */
export const templateKeys = {
  all: ['device-event-templates'] as const,
  detail: (id: number) => ['device-event-templates', id] as const,
  /** A device's current on a local day, drawn under the editor's norm bands. */
  preview: (device: number, date: string) => ['device-event-templates', 'preview', device, date] as const,
};
