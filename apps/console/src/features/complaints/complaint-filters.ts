import {
  COMPLAINT_PRIORITIES,
  COMPLAINT_STATUSES,
  OPEN_COMPLAINT_STATUSES,
  type ComplaintPriority,
  type ComplaintStatus,
  type Filters,
} from '@kontrol/contracts';
import { parseId } from '../../lib/parse-id';

/**
 * The complaints list's query-string parameters and their defaults. `status` is `open` (new or in
 * progress) by default, `all` for any status, or one status; the others are `''` for "any".
 */
export const COMPLAINT_LIST_PARAMS = {
  status: 'open',
  priority: '',
  device: '',
  address: '',
  assignee: '',
  q: '',
  page: '1',
} as const;
export type ComplaintListParams = Record<keyof typeof COMPLAINT_LIST_PARAMS, string>;

/** What the list asks the server for: one page and the filters, already checked. */
export interface ComplaintListRequest {
  page: number;
  status: 'open' | 'all' | ComplaintStatus;
  priority: ComplaintPriority | null;
  device: number | null;
  address: number | null;
  /** A user, `none` for complaints nobody is assigned to, or null for any. */
  assignee: number | 'none' | null;
  /** Part of the title. */
  search: string;
}

/** The request of the query string's parameters; anything malformed counts as its default. */
export function complaintListRequest(params: ComplaintListParams): ComplaintListRequest {
  const status =
    params.status === 'all' || (COMPLAINT_STATUSES as readonly string[]).includes(params.status)
      ? (params.status as ComplaintListRequest['status'])
      : 'open';
  return {
    page: parseId(params.page) ?? 1,
    status,
    priority: (COMPLAINT_PRIORITIES as readonly string[]).includes(params.priority)
      ? (params.priority as ComplaintPriority)
      : null,
    device: parseId(params.device),
    address: parseId(params.address),
    assignee: params.assignee === 'none' ? 'none' : parseId(params.assignee),
    search: params.q.trim(),
  };
}

/** The filters as the server takes them: `filters[field] = {operator, value}` (docs/contract.md, "Entities"). */
export function toServerFilters(request: ComplaintListRequest): Filters | undefined {
  const filters: Filters = {};
  if (request.status === 'open') filters.status = { operator: 'in', value: [...OPEN_COMPLAINT_STATUSES] };
  else if (request.status !== 'all') filters.status = { operator: '=', value: request.status };
  if (request.priority) filters.priority = { operator: '=', value: request.priority };
  if (request.device !== null) filters.device_id = { operator: '=', value: request.device };
  if (request.address !== null) filters.address_id = { operator: '=', value: request.address };
  if (request.assignee !== null) {
    filters.assignee_id = { operator: '=', value: request.assignee === 'none' ? null : request.assignee };
  }
  if (request.search) filters.title = { operator: 'like', value: request.search };
  return Object.keys(filters).length > 0 ? filters : undefined;
}
