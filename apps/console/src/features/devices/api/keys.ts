/** Query keys of the devices feature; the devices list itself is reference data (`['reference', 'devices']`). */
export const deviceKeys = {
  all: ['devices'] as const,
  detail: (id: number) => ['devices', id] as const,
  serviceLog: (id: number) => ['devices', id, 'service_log'] as const,
};

export const deviceGroupKeys = {
  all: ['device-groups'] as const,
  list: (params: { page: number; search: string }) => ['device-groups', 'list', params] as const,
  detail: (id: number) => ['device-groups', id] as const,
};
