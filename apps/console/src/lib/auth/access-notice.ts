import { useSyncExternalStore } from 'react';

/** A page the user asked for and may not open, and the page they were sent to instead (docs/console-shell.md). */
export interface DeniedPage {
  path: string;
  landing: string;
}

let denied: DeniedPage | null = null;
const listeners = new Set<() => void>();

function set(next: DeniedPage | null) {
  if (denied === next) return;
  denied = next;
  for (const listener of listeners) listener();
}

/**
 * Remembers why the account loader sent the user elsewhere, for the frame to say so: the loader
 * answers with a redirect, which carries no state of its own.
 */
export function noteDenied(path: string, landing: string): void {
  set({ path, landing });
}

/** The notice was read, closed, or the user went on to another page. */
export function clearDenied(): void {
  set(null);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The page last refused, until it is cleared. */
export function useDeniedPage(): DeniedPage | null {
  return useSyncExternalStore(subscribe, () => denied);
}
