import { useCallback, useState, type FormEvent } from 'react';
import { toApiFailure, type ApiFailure } from './api-errors';

/**
 * The state every form shares: submitting, the failure of the last try (SPEC §8), and the
 * messages for one field. `action` runs on submit; its failure is kept, its success handed on.
 */
export function useSubmit<T>(action: () => Promise<T>, onSuccess: (result: T) => void) {
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | null>(null);

  const submit = useCallback(
    async (event?: FormEvent<HTMLFormElement>) => {
      event?.preventDefault();
      setSubmitting(true);
      setFailure(null);
      try {
        const result = await action();
        setSubmitting(false);
        onSuccess(result);
      } catch (error) {
        setFailure(toApiFailure(error));
        setSubmitting(false);
      }
    },
    [action, onSuccess],
  );

  const fieldError = (field: string) =>
    failure?.kind === 'validation' ? failure.errors[field]?.join(' ') : undefined;

  return { submit, submitting, failure, setFailure, fieldError };
}
