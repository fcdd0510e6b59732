import type { ComponentType } from 'react';

let pageError: ComponentType | undefined;

/**
 * The account pages' error element (app/routes/page-error.tsx) is registered by the account
 * layout's chunk, which has loaded before any account page can fail: the first bundle (the login
 * page's) does not carry it.
 */
export function registerPageError(component: ComponentType): void {
  pageError = component;
}

/** The error element of every account page: the registered one, inside the frame. */
export function PageErrorSlot() {
  const Registered = pageError;
  if (!Registered) throw new Error('the account layout did not register its page error');
  return <Registered />;
}
