import { describe, expect, it } from 'vitest';
import { COMPLAINT_LIST_PARAMS, complaintListRequest, toServerFilters } from './complaint-filters';

describe('the complaints list filters', () => {
  it('ask for the open complaints by default', () => {
    const request = complaintListRequest({ ...COMPLAINT_LIST_PARAMS });
    expect(request).toEqual({
      page: 1,
      status: 'open',
      priority: null,
      device: null,
      address: null,
      assignee: null,
      search: '',
    });
    expect(toServerFilters(request)).toEqual({ status: { operator: 'in', value: ['new', 'in_progress'] } });
  });

  it('take what a hand-edited link gets wrong as its default', () => {
    const request = complaintListRequest({
      status: 'reopened',
      priority: 'panic',
      device: '-1',
      address: '1e3',
      assignee: '99999999999',
      q: '   ',
      page: '0',
    });
    expect(request).toMatchObject({ page: 1, status: 'open', priority: null, device: null, address: null });
    expect(request.assignee).toBeNull();
    expect(toServerFilters({ ...request, status: 'all' })).toBeUndefined();
  });
});
