import { useEffect, useState } from 'react';

/**
 * The server's clock as the statistics told it (`Date.now()` plus their offset), renewed every
 * `everyMs`: the rules are recomputed at this moment, which stays the same between renewals so
 * live updates reuse what was worked out for the devices that did not change.
 */
export function useServerNow(clockOffsetMs: number, everyMs = 30_000): number {
  const [browserNow, setBrowserNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setBrowserNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return browserNow + clockOffsetMs;
}
