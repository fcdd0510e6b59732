import { useForm, type UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import { toApiFailure, type ApiFailure } from './api-errors';

/**
 * A form whose submit calls the API (docs/contract.md, "Validation and errors shown", "Error catalogue"): Mantine's form state for the fields, the
 * server's 422 messages put under their fields, and the failure of the last try for
 * {@link FormFailure} (connection error, or the server's message).
 *
 * `validate` (optional) checks the values before anything is sent, answering field → messages as
 * the server's 422 does (e.g. the contracts' schema through `issuesToFieldErrors`); with any
 * message nothing is sent, and the messages show as a 422's would.
 *
 * `onValuesChange` (optional) hears every change of the values (a draft, lib/form-draft.ts).
 */
export function useApiForm<Values extends Record<string, unknown>, Result>(options: {
  initialValues: Values;
  submit: (values: Values) => Promise<Result>;
  onSuccess: (result: Result, form: UseFormReturnType<Values>) => void;
  validate?: (values: Values) => Record<string, string[]>;
  onValuesChange?: (values: Values) => void;
}) {
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: options.initialValues,
    ...(options.onValuesChange ? { onValuesChange: options.onValuesChange } : {}),
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
