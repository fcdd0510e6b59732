/** Query keys of the devices feature; the devices list itself is reference data (`['reference', 'devices']`). */
export const deviceKeys = {
  all: ['devices'] as const,
  detail: (id: number) => ['devices', id] as const,
  serviceLog: (id: number) => ['devices', id, 'service_log'] as const,
  /** The device's dashboard view: its telemetry, worktime and washes over a period. */
  telemetry: (id: number, range: { start: number; finish: number }) =>
    ['devices', id, 'telemetry', range] as const,
  worktime: (id: number, dates: { start: string; finish: string }) =>
    ['devices', id, 'worktime', dates] as const,
  online: (id: number, range: { start: number; finish: number }) => ['devices', id, 'online', range] as const,
  wash: (id: number, range: { start: number; finish: number }) => ['devices', id, 'wash', range] as const,
  /** What the device may send and what of it was refused, by UTC day. */
  limits: (id: number) => ['devices', id, 'limits'] as const,
};
