import type { AuthUser } from '@kontrol/contracts';
import { Alert, Anchor, Button, Checkbox, Group, Stack } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData, useLocation, useNavigate, useSearchParams } from 'react-router';
import { EmailField, PasswordField } from '../../../components/form-fields';
import { FormFailure } from '../../../components/form-failure';
import { ScreenTitle } from '../../../components/screen-title';
import { paths } from '../../../config/paths';
import { useApiForm } from '../../../lib/use-api-form';
import { login } from '../api/login';
import type { GuestPageData } from '../../../lib/auth/loaders';
import type { LogoutState } from './logout-page';
import { landingPath, safeRedirect, setSignedIn } from '../../../lib/auth/session';

/** `/auth/login`: after signing in, the `redirect` query's page, or the landing page. */
export function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Sign in')} · Kontrol`);
  const { tokenFailed } = useLoaderData<GuestPageData>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const logoutPending = (useLocation().state as LogoutState | null)?.logoutPending === true;
  const { form, onSubmit, submitting, failure, fields } = useApiForm({
    // A link from a password reset or an invitation fills the e-mail in.
    initialValues: { email: params.get('email') ?? '', password: '', remember: false },
    submit: login,
    onSuccess: (user: AuthUser) => {
      setSignedIn(user);
      void navigate(safeRedirect(params.get('redirect')) ?? landingPath(user), { replace: true });
    },
  });

  return (
    <>
      <ScreenTitle size="h2" mb="lg">
        {t('Sign in to your account')}
      </ScreenTitle>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {tokenFailed && !failure && (
            <Alert color="red" role="alert">
              {t('The login link is invalid or has expired. Sign in with your password.')}
            </Alert>
          )}
          {logoutPending && !failure && (
            <Alert color="blue" role="status">
              {t(
                'You are signed out on this device. The server will end the session once the connection is back.',
              )}
            </Alert>
          )}
          <FormFailure failure={failure} fields={fields} />
          <EmailField autoComplete="username" {...form.getInputProps('email')} />
          <PasswordField
            label={t('Password')}
            name="password"
            autoComplete="current-password"
            {...form.getInputProps('password')}
          />
          <Checkbox
            label={t('Remember me')}
            name="remember"
            {...form.getInputProps('remember', { type: 'checkbox' })}
          />
          <Button type="submit" fullWidth loading={submitting}>
            {t('Sign in')}
          </Button>
          <Group justify="space-between">
            <Anchor component={Link} to={paths.auth.forgotPassword} size="sm">
              {t('Forgot your password?')}
            </Anchor>
            <Anchor component={Link} to={paths.auth.register} size="sm">
              {t('Create an account')}
            </Anchor>
          </Group>
        </Stack>
      </form>
    </>
  );
}
