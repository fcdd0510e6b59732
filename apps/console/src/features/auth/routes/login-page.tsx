import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData, useNavigate, useSearchParams } from 'react-router';
import { FormFailure } from '../../../components/form-failure';
import { ScreenTitle } from '../../../components/screen-title';
import { paths } from '../../../config/paths';
import { useSubmit } from '../../../lib/use-submit';
import type { AuthUser } from '@kontrol/contracts';
import { login } from '../api/login';
import type { GuestPageData } from '../loaders';
import { landingPath, safeRedirect, setSignedIn } from '../session';

const FIELDS = ['email', 'password'] as const;

/** `/auth/login`: after signing in, the `redirect` query's page, or the landing page. */
export function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Sign in')} · Kontrol`);
  const { tokenFailed } = useLoaderData<GuestPageData>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);

  const onSignedIn = useCallback(
    (user: AuthUser) => {
      setSignedIn(user);
      void navigate(safeRedirect(params.get('redirect')) ?? landingPath(user), { replace: true });
    },
    [navigate, params],
  );
  const action = useCallback(() => login({ email, password, remember }), [email, password, remember]);
  const { submit, submitting, failure, fieldError } = useSubmit(action, onSignedIn);

  return (
    <>
      <ScreenTitle size="h2" mb="lg">
        {t('Sign in to your account')}
      </ScreenTitle>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          {tokenFailed && !failure && (
            <Alert color="red" role="alert">
              {t('The login link is invalid or has expired. Sign in with your password.')}
            </Alert>
          )}
          <FormFailure failure={failure} fields={FIELDS} />
          <TextInput
            label={t('E-mail')}
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            spellCheck={false}
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={fieldError('email')}
          />
          <PasswordInput
            label={t('Password')}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={fieldError('password')}
            visibilityToggleButtonProps={{ 'aria-label': t('Show password') }}
          />
          <Checkbox
            label={t('Remember me')}
            name="remember"
            checked={remember}
            onChange={(event) => setRemember(event.currentTarget.checked)}
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
