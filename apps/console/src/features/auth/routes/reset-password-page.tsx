import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { NewPasswordFields } from '../../../components/form-fields';
import { FormFailure } from '../../../components/form-failure';
import { ScreenTitle } from '../../../components/screen-title';
import { paths } from '../../../config/paths';
import { useApiForm } from '../../../lib/use-api-form';
import { login } from '../api/login';
import { resetPassword } from '../api/password-reset';
import { landingPath, setSignedIn } from '../../../lib/auth/session';

/**
 * `/auth/reset-password?token=…&email=…`, the page the reset e-mail links to. The invitation e-mail
 * links here too, with `invitation=1`: the same form and endpoint, worded for a first password;
 * once accepted, the new user is signed in with the password just chosen and lands on their first
 * page. After a reset (or should that sign-in fail) the page links to the login page with the
 * e-mail filled in.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const invitation = params.get('invitation') === '1';
  const heading = invitation ? t('Choose a password') : t('Choose a new password');
  useDocumentTitle(`${heading} · Kontrol`);
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const navigate = useNavigate();
  const [done, setDone] = useState<string | null>(null);
  const { form, onSubmit, submitting, failure, fields } = useApiForm({
    initialValues: { password: '', password_confirmation: '' },
    submit: async (values) => {
      const message = await resetPassword({ token, email, ...values });
      if (!invitation) return { message, user: null };
      // The password is set either way: a sign-in that fails leaves the login page to the user.
      const user = await login({ email, password: values.password }).catch(() => null);
      return { message, user };
    },
    onSuccess: ({ message, user }) => {
      if (!user) {
        setDone(message);
        return;
      }
      setSignedIn(user);
      void navigate(landingPath(user), { replace: true });
    },
  });

  if (!token || !email) {
    return (
      <Stack gap="md">
        <ScreenTitle size="h2">{heading}</ScreenTitle>
        <Alert color="red" role="alert">
          {invitation
            ? t('This link is incomplete. Open the link from the invitation e-mail again.')
            : t('This link is incomplete. Open the link from the e-mail again, or ask for a new one.')}
        </Alert>
        {!invitation && (
          <Anchor component={Link} to={paths.auth.forgotPassword} size="sm">
            {t('Ask for a new link')}
          </Anchor>
        )}
      </Stack>
    );
  }
  if (done) {
    return (
      <Stack gap="md">
        <ScreenTitle size="h2">{heading}</ScreenTitle>
        <Alert color="green" role="status">
          {done}
        </Alert>
        <Button component={Link} to={`${paths.auth.login}?${new URLSearchParams({ email }).toString()}`}>
          {t('Sign in')}
        </Button>
      </Stack>
    );
  }
  return (
    <>
      <ScreenTitle size="h2" mb="xs">
        {heading}
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
            {invitation ? t('Accept invitation') : t('Save the password')}
          </Button>
          {failure?.kind === 'validation' &&
            failure.errors.email &&
            (invitation ? (
              <Text size="sm">{t('Ask your administrator to send a new invitation.')}</Text>
            ) : (
              <Anchor component={Link} to={paths.auth.forgotPassword} size="sm">
                {t('Ask for a new link')}
              </Anchor>
            ))}
        </Stack>
      </form>
    </>
  );
}
