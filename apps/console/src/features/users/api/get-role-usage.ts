import { apiClient } from '../../../lib/api-client';

export interface RoleUsage {
  is_used: boolean;
  users_count: number;
}

/** GET /api/acl/role/{id}/is_used: asked right before a deletion, so the answer is fresh. */
export async function getRoleUsage(id: number): Promise<RoleUsage> {
  return (await apiClient.get<{ data: RoleUsage }>(`/acl/role/${id}/is_used`)).data.data;
}
