/** Query keys of device groups, shared by the equipment pages and the recipes deploy dialog. */
export const deviceGroupKeys = {
  all: ['device-groups'] as const,
  list: (params: { page: number; search: string }) => ['device-groups', 'list', params] as const,
  detail: (id: number) => ['device-groups', id] as const,
};
