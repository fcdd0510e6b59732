import type { DeviceEventsRequest } from './get-device-events';

/**
 * Query keys of device events. The list the console loads on entry (open events and the last 24 h,
 * docs/contract.md, "Product and areas") is reference data (`['reference', 'deviceEvents']`); these are the paged lists and the
 * single events.
 */
export const deviceEventKeys = {
  all: ['device-events'] as const,
  lists: () => ['device-events', 'list'] as const,
  list: (request: DeviceEventsRequest) => ['device-events', 'list', request] as const,
  detail: (id: number) => ['device-events', id] as const,
};
