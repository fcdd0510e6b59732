import { GUEST_FLAG, STORAGE_KEYS } from '@kontrol/contracts';

/**
 * SPEC §4: local storage remembers whether this browser last had a signed-in user, so the router of
 * a later issue can decide without a round trip whether a guest page should try loading the user.
 */
export function rememberGuest(isGuest: boolean): void {
  try {
    localStorage.setItem(STORAGE_KEYS.guest, isGuest ? GUEST_FLAG.guest : GUEST_FLAG.notGuest);
  } catch {
    // Storage unavailable: the flag is an optimisation, the session cookie is the truth.
  }
}
