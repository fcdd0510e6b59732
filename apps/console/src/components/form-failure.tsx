import { Alert, List } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiFailure } from '../lib/api-errors';

/**
 * The failure of a form's last submit (docs/contract.md, "Validation and errors shown", "Error catalogue"): field errors under the heading "Please fix the
 * following errors" (messages of fields the form does not show are listed in it), the connection
 * error text, or the server's own message.
 */
export function FormFailure({ failure, fields }: { failure: ApiFailure | null; fields: readonly string[] }) {
  const { t } = useTranslation();
  if (!failure) return null;
  if (failure.kind === 'validation') {
    const others = Object.entries(failure.errors)
      .filter(([field]) => !fields.includes(field))
      .flatMap(([, messages]) => messages);
    return (
      <Alert color="red" title={t('Please fix the following errors')} role="alert">
        {others.length > 0 && (
          <List size="sm">
            {others.map((message) => (
              <List.Item key={message}>{message}</List.Item>
            ))}
          </List>
        )}
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert">
      {failure.kind === 'connection' ? t('Connection error. Please try again later') : failure.message}
    </Alert>
  );
}
