import { GUEST_FLAG, STORAGE_KEYS } from '@kontrol/contracts';

/**
 * docs/contract.md, "States and transitions": local storage remembers whether this browser last had a signed-in user (`isNotGuest`)
 * or not (`isGuest`), so a guest page knows whether trying to load the user is worth a request.
 */
export function rememberGuest(isGuest: boolean): void {
  try {
    localStorage.setItem(STORAGE_KEYS.guest, isGuest ? GUEST_FLAG.guest : GUEST_FLAG.notGuest);
  } catch {
    // Storage unavailable: the flag is an optimisation, the session cookie is the truth.
  }
}

export function isRememberedAsSignedIn(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.guest) === GUEST_FLAG.notGuest;
  } catch {
    return false;
  }
}
