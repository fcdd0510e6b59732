import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { NewPasswordFields } from '../../../components/form-fields';
import { FormFailure } from '../../../components/form-failure';
import { ScreenTitle } from '../../../components/screen-title';
import { paths } from '../../../config/paths';
import { useApiForm } from '../../../lib/use-api-form';
import { resetPassword } from '../api/password-reset';

/** `/auth/reset-password?token=…&email=…`, the page the reset e-mail links to. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Choose a new password')} · Kontrol`);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const [done, setDone] = useState<string | null>(null);
  const { form, onSubmit, submitting, failure, fields } = useApiForm({
    initialValues: { password: '', password_confirmation: '' },
    submit: (values) => resetPassword({ token, email, ...values }),
    onSuccess: setDone,
  });

  if (!token || !email) {
    return (
      <Stack gap="md">
        <ScreenTitle size="h2">{t('Choose a new password')}</ScreenTitle>
        <Alert color="red" role="alert">
          {t('This link is incomplete. Open the link from the e-mail again, or ask for a new one.')}
        </Alert>
        <Anchor component={Link} to={paths.auth.forgotPassword} size="sm">
          {t('Ask for a new link')}
        </Anchor>
      </Stack>
    );
  }
  if (done) {
    return (
      <Stack gap="md">
        <ScreenTitle size="h2">{t('Choose a new password')}</ScreenTitle>
        <Alert color="green" role="status">
          {done}
        </Alert>
        <Button component={Link} to={paths.auth.login}>
          {t('Sign in')}
        </Button>
      </Stack>
    );
  }
  return (
    <>
      <ScreenTitle size="h2" mb="xs">
        {t('Choose a new password')}
      </ScreenTitle>
      <Text size="sm" c="dimmed" mb="lg">
        {email}
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <FormFailure failure={failure} fields={fields} />
          <NewPasswordFields
            password={form.getInputProps('password')}
            confirmation={form.getInputProps('password_confirmation')}
          />
          <Button type="submit" fullWidth loading={submitting}>
            {t('Save the password')}
          </Button>
          {failure?.kind === 'validation' && failure.errors.email && (
            <Anchor component={Link} to={paths.auth.forgotPassword} size="sm">
              {t('Ask for a new link')}
            </Anchor>
          )}
        </Stack>
      </form>
    </>
  );
}
