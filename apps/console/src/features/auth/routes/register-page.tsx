import type { AuthUser } from '@kontrol/contracts';
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { FormFailure } from '../../../components/form-failure';
import { ScreenTitle } from '../../../components/screen-title';
import { paths } from '../../../config/paths';
import { getLocale } from '../../../lib/i18n';
import { useSubmit } from '../../../lib/use-submit';
import { register } from '../api/register';
import { landingPath, setSignedIn } from '../session';

const FIELDS = ['name', 'organisation_name', 'email', 'password', 'password_confirmation'] as const;

/** `/auth/register`: a new organisation and its administrator, signed in straight away. */
export function RegisterPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Create an account')} · Kontrol`);
  const navigate = useNavigate();
  const [form, setForm] = useState({
    name: '',
    organisation_name: '',
    email: '',
    password: '',
    password_confirmation: '',
  });
  const set = (field: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) => {
    // Read now: React clears currentTarget once the handler returns, before the updater runs.
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
  };

  const action = useCallback(
    () =>
      register({
        ...form,
        organisation_name: form.organisation_name.trim() || undefined,
        locale: getLocale(),
      }),
    [form],
  );
  const onRegistered = useCallback(
    (user: AuthUser) => {
      setSignedIn(user);
      void navigate(landingPath(user), { replace: true });
    },
    [navigate],
  );
  const { submit, submitting, failure, fieldError } = useSubmit(action, onRegistered);

  return (
    <>
      <ScreenTitle size="h2" mb="xs">
        {t('Create an account')}
      </ScreenTitle>
      <Text size="sm" c="dimmed" mb="lg">
        {t('A new organisation is created with you as its administrator.')}
      </Text>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <FormFailure failure={failure} fields={FIELDS} />
          <TextInput
            label={t('Name')}
            name="name"
            autoComplete="name"
            value={form.name}
            onChange={set('name')}
            error={fieldError('name')}
          />
          <TextInput
            label={t('Organisation name')}
            name="organisation_name"
            autoComplete="organization"
            value={form.organisation_name}
            onChange={set('organisation_name')}
            error={fieldError('organisation_name')}
          />
          <TextInput
            label={t('E-mail')}
            type="email"
            name="email"
            autoComplete="email"
            spellCheck={false}
            value={form.email}
            onChange={set('email')}
            error={fieldError('email')}
          />
          <PasswordInput
            label={t('Password')}
            name="password"
            autoComplete="new-password"
            description={t('At least 8 characters.')}
            value={form.password}
            onChange={set('password')}
            error={fieldError('password')}
            visibilityToggleButtonProps={{ 'aria-label': t('Show password') }}
          />
          <PasswordInput
            label={t('Confirm password')}
            name="password_confirmation"
            autoComplete="new-password"
            value={form.password_confirmation}
            onChange={set('password_confirmation')}
            error={fieldError('password_confirmation')}
            visibilityToggleButtonProps={{ 'aria-label': t('Show password') }}
          />
          <Button type="submit" fullWidth loading={submitting}>
            {t('Sign up')}
          </Button>
          <Anchor component={Link} to={paths.auth.login} size="sm">
            {t('I already have an account')}
          </Anchor>
        </Stack>
      </form>
    </>
  );
}
