import type { AuthUser } from '@kontrol/contracts';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import { FormFailure } from '../../../components/form-failure';
import { formatDateTime } from '../../../lib/format';
import { useSubmit } from '../../../lib/use-submit';
import { setSignedIn } from '../../auth/session';
import { useCurrentUser } from '../../auth/use-current-user';
import { sendVerificationEmail, updatePassword, updateProfile } from '../api/profile';

/** `/account/profile`: the signed-in user's own name, e-mail and password. */
export function ProfilePage() {
  const user = useCurrentUser();
  return (
    <Stack maw={560} gap="lg">
      <ProfileForm user={user} />
      <VerificationPanel user={user} />
      <PasswordForm />
    </Stack>
  );
}

function ProfileForm({ user }: { user: AuthUser }) {
  const { t } = useTranslation();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [saved, setSaved] = useState(false);
  const action = useCallback(() => {
    setSaved(false);
    return updateProfile({ name, email });
  }, [name, email]);
  const revalidator = useRevalidator();
  const onSaved = useCallback(
    (updated: AuthUser) => {
      setSignedIn(updated);
      setSaved(true);
      // The frame (header name) and this page read the user through the area's loader.
      void revalidator.revalidate();
    },
    [revalidator],
  );
  const { submit, submitting, failure, fieldError } = useSubmit(action, onSaved);

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="profile-details">
      <Title order={2} size="h4" id="profile-details" mb="md">
        {t('Your details')}
      </Title>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <FormFailure failure={failure} fields={['name', 'email']} />
          {saved && (
            <Alert color="green" role="status">
              {t('Saved.')}
            </Alert>
          )}
          <TextInput
            label={t('Name')}
            name="name"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fieldError('name')}
          />
          <TextInput
            label={t('E-mail')}
            type="email"
            name="email"
            autoComplete="email"
            spellCheck={false}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError('email')}
            description={t('A new address must be confirmed again.')}
          />
          <Group gap="xs">
            <Text size="sm">{t('Role')}:</Text>
            <Badge variant="light">{user.role === 'admin' ? t('Administrator') : t('Regular user')}</Badge>
          </Group>
          <Button type="submit" loading={submitting} w="fit-content">
            {t('Save')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

function VerificationPanel({ user }: { user: AuthUser }) {
  const { t } = useTranslation();
  const [sent, setSent] = useState<string | null>(null);
  const { submit, submitting, failure } = useSubmit(sendVerificationEmail, setSent);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="profile-verification">
      <Title order={2} size="h4" id="profile-verification" mb="sm">
        {t('E-mail confirmation')}
      </Title>
      {user.status === 'verified' ? (
        <Text size="sm">
          {t('Confirmed on {{date}}.', {
            date: user.email_verified_at ? formatDateTime(user.email_verified_at) : '',
          })}
        </Text>
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            {t('Your e-mail address is not confirmed yet. Follow the link in the e-mail we sent you.')}
          </Text>
          <FormFailure failure={failure} fields={[]} />
          {sent && (
            <Alert color="green" role="status">
              {sent}
            </Alert>
          )}
          <Button variant="default" loading={submitting} onClick={() => void submit()} w="fit-content">
            {t('Send the e-mail again')}
          </Button>
        </Stack>
      )}
    </Paper>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const empty = { current_password: '', password: '', password_confirmation: '' };
  const [form, setForm] = useState(empty);
  const [done, setDone] = useState<string | null>(null);
  const set = (field: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) => {
    // Read now: React clears currentTarget once the handler returns, before the updater runs.
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
  };
  const action = useCallback(() => {
    setDone(null);
    return updatePassword(form);
  }, [form]);
  const onChanged = useCallback((message: string) => {
    setForm({ current_password: '', password: '', password_confirmation: '' });
    setDone(message);
  }, []);
  const { submit, submitting, failure, fieldError } = useSubmit(action, onChanged);
  const toggle = { 'aria-label': t('Show password') };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="profile-password">
      <Title order={2} size="h4" id="profile-password" mb="md">
        {t('Password')}
      </Title>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <FormFailure failure={failure} fields={Object.keys(empty)} />
          {done && (
            <Alert color="green" role="status">
              {done} {t('Your other sessions have been signed out.')}
            </Alert>
          )}
          <PasswordInput
            label={t('Current password')}
            name="current_password"
            autoComplete="current-password"
            value={form.current_password}
            onChange={set('current_password')}
            error={fieldError('current_password')}
            visibilityToggleButtonProps={toggle}
          />
          <PasswordInput
            label={t('New password')}
            name="password"
            autoComplete="new-password"
            description={t('At least 8 characters.')}
            value={form.password}
            onChange={set('password')}
            error={fieldError('password')}
            visibilityToggleButtonProps={toggle}
          />
          <PasswordInput
            label={t('Confirm password')}
            name="password_confirmation"
            autoComplete="new-password"
            value={form.password_confirmation}
            onChange={set('password_confirmation')}
            error={fieldError('password_confirmation')}
            visibilityToggleButtonProps={toggle}
          />
          <Button type="submit" loading={submitting} w="fit-content">
            {t('Change password')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
