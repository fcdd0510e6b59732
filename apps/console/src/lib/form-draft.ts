import { useState } from 'react';

const DRAFT_PREFIX = 'kontrol-draft:';

/** Texts, numbers, flags, and lists and plain objects of them: what a draft can keep and give back. */
function isPlain(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlain);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.values(value).every(isPlain);
  return false;
}

/** A field is kept in a draft unless it is a password or holds something else than plain data (a file, a date). */
function keptInDraft(field: string, value: unknown): boolean {
  return !/password|token/i.test(field) && isPlain(value);
}

/**
 * The values a form starts from: `initial`, with the fields of the draft kept in this tab under
 * `key` where they have the same kind of value (so a draft of an older form's shape is harmless).
 */
export function withDraft<Values extends Record<string, unknown>>(key: string, initial: Values): Values {
  let draft: unknown;
  try {
    draft = JSON.parse(sessionStorage.getItem(DRAFT_PREFIX + key) ?? 'null');
  } catch {
    return initial;
  }
  if (typeof draft !== 'object' || draft === null) return initial;
  const values: Record<string, unknown> = { ...initial };
  for (const [field, value] of Object.entries(draft)) {
    if (!(field in initial) || /password|token/i.test(field)) continue;
    const was = initial[field];
    const sameKind =
      was === null ||
      value === null ||
      (Array.isArray(was) ? Array.isArray(value) : typeof was === typeof value && !Array.isArray(value));
    if (sameKind && isPlain(value)) values[field] = value;
  }
  return values as Values;
}

export function saveDraft(key: string, values: Record<string, unknown>): void {
  try {
    const kept = Object.fromEntries(
      Object.entries(values).filter(([field, value]) => keptInDraft(field, value)),
    );
    sessionStorage.setItem(DRAFT_PREFIX + key, JSON.stringify(kept));
  } catch {
    // Storage full or unavailable: the form works on without a draft.
  }
}

export function clearDraft(key: string): void {
  try {
    sessionStorage.removeItem(DRAFT_PREFIX + key);
  } catch {
    // Nothing kept.
  }
}

/**
 * A form's draft kept in this tab under `key` (session storage, never passwords or files): the
 * values to start from (the draft over `initial`), what `useApiForm` calls on every change, and
 * what forgets the draft once the form is saved. Given back when the form opens again — after a
 * page that could not open for lack of connection, say (docs/console-shell.md).
 */
export function useFormDraft<Values extends Record<string, unknown>>(key: string, initial: () => Values) {
  const [initialValues] = useState(() => withDraft(key, initial()));
  return {
    initialValues,
    onValuesChange: (values: Values) => saveDraft(key, values),
    clear: () => clearDraft(key),
  };
}
