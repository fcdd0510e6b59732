import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FormFailure } from '../../../components/form-failure';
import { ScreenTitle } from '../../../components/screen-title';
import { paths } from '../../../config/paths';
import { useSubmit } from '../../../lib/use-submit';
import { resetPassword } from '../api/password-reset';

/** `/auth/reset-password?token=…&email=…`, the page the reset e-mail links to. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Choose a new password')} · Kontrol`);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const action = useCallback(
    () => resetPassword({ token, email, password, password_confirmation: confirmation }),
    [token, email, password, confirmation],
  );
  const { submit, submitting, failure, fieldError } = useSubmit(action, setDone);

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
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <FormFailure failure={failure} fields={['password', 'password_confirmation']} />
          <PasswordInput
            label={t('Password')}
            name="password"
            autoComplete="new-password"
            description={t('At least 8 characters.')}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={fieldError('password')}
            visibilityToggleButtonProps={{ 'aria-label': t('Show password') }}
          />
          <PasswordInput
            label={t('Confirm password')}
            name="password_confirmation"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.currentTarget.value)}
            error={fieldError('password_confirmation')}
            visibilityToggleButtonProps={{ 'aria-label': t('Show password') }}
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
