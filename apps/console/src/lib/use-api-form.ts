import { useForm, type UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import { toApiFailure, type ApiFailure } from './api-errors';

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

function saveDraft(key: string, values: Record<string, unknown>): void {
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
 * A form whose submit calls the API (SPEC §5, §8): Mantine's form state for the fields, the
 * server's 422 messages put under their fields, and the failure of the last try for
 * {@link FormFailure} (connection error, or the server's message).
 *
 * `validate` (optional) checks the values before anything is sent, answering field → messages as
 * the server's 422 does (e.g. the contracts' schema through `issuesToFieldErrors`); with any
 * message nothing is sent, and the messages show as a 422's would.
 *
 * `draft` (optional) names the form's draft: what is typed is kept in this tab (session storage,
 * never passwords or files) and given back when the form opens again — after the page could not
 * open for lack of connection, say, and the user came back (docs/console-shell.md). A successful
 * submit forgets it.
 */
export function useApiForm<Values extends Record<string, unknown>, Result>(options: {
  initialValues: Values;
  submit: (values: Values) => Promise<Result>;
  onSuccess: (result: Result, form: UseFormReturnType<Values>) => void;
  validate?: (values: Values) => Record<string, string[]>;
  draft?: string;
}) {
  const { draft } = options;
  const [initialValues] = useState(() =>
    draft ? withDraft(draft, options.initialValues) : options.initialValues,
  );
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues,
    ...(draft ? { onValuesChange: (values: Values) => saveDraft(draft, values) } : {}),
  });
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | null>(null);

  const onSubmit = form.onSubmit(async (values) => {
    setSubmitting(true);
    setFailure(null);
    form.clearErrors();
    const invalid = options.validate?.(values) ?? {};
    if (Object.keys(invalid).length > 0) {
      setFailure({ kind: 'validation', message: '', errors: invalid });
      form.setErrors(
        Object.fromEntries(Object.entries(invalid).map(([field, messages]) => [field, messages.join(' ')])),
      );
      setSubmitting(false);
      return;
    }
    try {
      const result = await options.submit(values);
      if (draft) clearDraft(draft);
      setSubmitting(false);
      options.onSuccess(result, form);
    } catch (error) {
      const next = toApiFailure(error);
      setFailure(next);
      if (next.kind === 'validation') {
        form.setErrors(
          Object.fromEntries(
            Object.entries(next.errors).map(([field, messages]) => [field, messages.join(' ')]),
          ),
        );
      }
      setSubmitting(false);
    }
  });

  return { form, onSubmit, submitting, failure, fields: Object.keys(options.initialValues) };
}
