import type { Filters, PaginationMeta, User } from '@kontrol/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys, type UsersListParams } from './keys';

export interface UsersPage {
  data: User[];
  meta: PaginationMeta;
}

/**
 * The list's search and filters as the API's `filters` (docs/contract.md, "Entities"): a search holding `@` looks in
 * e-mail addresses, any other in names; role, status (or disabled) and access role are exact.
 */
export function usersFilters(params: UsersListParams): Filters | undefined {
  const filters: Filters = {};
  const search = params.search.trim();
  if (search) filters[search.includes('@') ? 'email' : 'name'] = { operator: 'like', value: search };
  if (params.role) filters.role = { operator: '=', value: params.role };
  // Disabled is a state of its own (the list shows it instead of the e-mail status).
  if (params.status === 'disabled') filters.disabled = { operator: '=', value: true };
  else if (params.status) filters.status = { operator: '=', value: params.status };
  if (params.aclRoleId) filters.acl_role_id = { operator: '=', value: Number(params.aclRoleId) };
  return Object.keys(filters).length > 0 ? filters : undefined;
}

/** GET /api/users/?page=&filters= (docs/contract.md, "HTTP calls"): one page of the organisation's users. */
export async function getUsers(params: UsersListParams, signal?: AbortSignal): Promise<UsersPage> {
  const filters = usersFilters(params);
  const { data } = await apiClient.get<UsersPage>('/users/', {
    params: { page: params.page, ...(filters ? { filters: JSON.stringify(filters) } : {}) },
    signal,
  });
  return { data: data.data, meta: data.meta };
}

export const getUsersQueryOptions = (params: UsersListParams) =>
  queryOptions({ queryKey: userKeys.list(params), queryFn: ({ signal }) => getUsers(params, signal) });

/** A page of users; the previous page stays on screen while the next one loads. */
export function useUsers(params: UsersListParams) {
  return useQuery({ ...getUsersQueryOptions(params), placeholderData: keepPreviousData });
}
