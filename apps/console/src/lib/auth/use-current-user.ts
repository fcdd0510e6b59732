import type { AuthUser } from '@kontrol/contracts';
import { useRouteLoaderData } from 'react-router';
import type { AccountData } from './loaders';

/** The route id of the account area, whose loader knows the signed-in user. */
export const ACCOUNT_ROUTE_ID = 'account';

/** The signed-in user, inside the account area (its loader guarantees one). */
export function useCurrentUser(): AuthUser {
  const data = useRouteLoaderData<AccountData>(ACCOUNT_ROUTE_ID);
  if (!data) throw new Error('useCurrentUser is only for pages of the account area');
  return data.user;
}
