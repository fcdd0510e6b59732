import type { AuthUser } from '@kontrol/contracts';
import { useCallback, useEffect, useState } from 'react';
import { onSessionEnded } from '../../lib/api-client';
import { endsSession, isAbortError, toApiFailure, type ApiFailure } from '../../lib/api-errors';
import { getAuthUser } from './api/get-auth-user';
import { logout } from './api/logout';
import { rememberGuest } from './guest-flag';

export type Session =
  | { status: 'loading' }
  /** `failure`: why loading the user failed, when it was not simply "no session" (SPEC §8). */
  | { status: 'guest'; failure: ApiFailure | null }
  | { status: 'signed-in'; user: AuthUser };

/**
 * The current user: loaded once on start (GET /api/users/auth), set by a successful login, and
 * cleared by logout or by any 401/419 answer while signed in.
 */
export function useSession() {
  const [session, setSession] = useState<Session>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    getAuthUser({ signal: controller.signal }).then(
      (user) => {
        rememberGuest(false);
        setSession({ status: 'signed-in', user });
      },
      (error: unknown) => {
        if (isAbortError(error)) return;
        rememberGuest(true);
        setSession({ status: 'guest', failure: endsSession(error) ? null : toApiFailure(error) });
      },
    );
    return () => controller.abort();
  }, []);

  useEffect(
    () =>
      onSessionEnded(() => {
        rememberGuest(true);
        setSession((current) =>
          current.status === 'signed-in' ? { status: 'guest', failure: null } : current,
        );
      }),
    [],
  );

  const signedIn = useCallback((user: AuthUser) => {
    rememberGuest(false);
    setSession({ status: 'signed-in', user });
  }, []);

  /** Ends the session. Rethrows when the server could not be told, and the user stays signed in. */
  const signOut = useCallback(async () => {
    try {
      await logout();
    } catch (error) {
      // 401/419: the server session is already gone, which is what the user asked for.
      if (!endsSession(error)) throw error;
    }
    rememberGuest(true);
    setSession({ status: 'guest', failure: null });
  }, []);

  return { session, signedIn, signOut };
}
