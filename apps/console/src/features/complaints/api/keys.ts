import type { ComplaintListRequest } from '../complaint-filters';

/** Query keys of complaints: the pages of the list, one complaint, its timeline. */
export const complaintKeys = {
  all: ['complaints'] as const,
  list: (request: ComplaintListRequest) => ['complaints', 'list', request] as const,
  detail: (id: number) => ['complaints', id] as const,
  events: (id: number) => ['complaints', id, 'events'] as const,
};
