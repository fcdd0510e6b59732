import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmailField } from '../../../components/form-fields';
import { FormFailure } from '../../../components/form-failure';
import { ScreenTitle } from '../../../components/screen-title';
import { paths } from '../../../config/paths';
import { useApiForm } from '../../../lib/use-api-form';
import { sendResetLink } from '../api/password-reset';

/** `/auth/forgot-password`: e-mails a reset link; the server answers the same for any address. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Reset your password')} · Kontrol`);
  const [sent, setSent] = useState<string | null>(null);
  const { form, onSubmit, submitting, failure, fields } = useApiForm({
    initialValues: { email: '' },
    submit: ({ email }) => sendResetLink(email),
    onSuccess: setSent,
  });

  return (
    <>
      <ScreenTitle size="h2" mb="xs">
        {t('Reset your password')}
      </ScreenTitle>
      <Text size="sm" c="dimmed" mb="lg">
        {t('Enter the e-mail of your account and we will send you a link to choose a new password.')}
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {sent && (
            <Alert color="green" role="status">
              {sent}
            </Alert>
          )}
          <FormFailure failure={failure} fields={fields} />
          <EmailField {...form.getInputProps('email')} />
          <Button type="submit" fullWidth loading={submitting}>
            {t('Send the link')}
          </Button>
          <Anchor component={Link} to={paths.auth.login} size="sm">
            {t('Back to sign in')}
          </Anchor>
        </Stack>
      </form>
    </>
  );
}
