import type { AuthUser } from '@kontrol/contracts';
import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import { EmailField, NewPasswordFields, PasswordField } from '../../../components/form-fields';
import { FormFailure } from '../../../components/form-failure';
import { NotificationSettingsForm } from '../../../components/notification-settings-form';
import { useSaveUserSettings, useUserSettings } from '../../../lib/user-settings';
import { formatDateTime } from '../../../lib/format';
import { useApiForm } from '../../../lib/use-api-form';
import { setSignedIn } from '../../../lib/auth/session';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { sendVerificationEmail, updatePassword, updateProfile } from '../../../lib/auth/profile';

/**
 * `/account/profile`: the signed-in user's own name, e-mail, password and notification settings
 * (the frame shows the title).
 */
export function ProfilePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const settings = useUserSettings(user.id);
  const saveSettings = useSaveUserSettings(user.id);
  return (
    <Stack maw={560} gap="lg">
      <ProfileForm user={user} />
      <VerificationPanel user={user} />
      <PasswordForm />
      <Section id="profile-notifications" title={t('Notifications')}>
        <NotificationSettingsForm key={user.id} settings={settings} save={saveSettings} />
      </Section>
    </Stack>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Done({ children }: { children: ReactNode }) {
  return (
    <Alert color="green" role="status">
      {children}
    </Alert>
  );
}

function ProfileForm({ user }: { user: AuthUser }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [saved, setSaved] = useState(false);
  const { form, onSubmit, submitting, failure, fields } = useApiForm({
    initialValues: { name: user.name, email: user.email },
    submit: (values) => {
      setSaved(false);
      return updateProfile(values);
    },
    onSuccess: (updated: AuthUser) => {
      setSignedIn(updated);
      setSaved(true);
      // The frame (header name) and this page read the user through the area's loader.
      void revalidator.revalidate();
    },
  });

  return (
    <Section id="profile-details" title={t('Your details')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <FormFailure failure={failure} fields={fields} />
          {saved && <Done>{t('Saved.')}</Done>}
          <TextInput label={t('Name')} name="name" autoComplete="name" {...form.getInputProps('name')} />
          <EmailField
            description={t('A new address must be confirmed again.')}
            {...form.getInputProps('email')}
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
    </Section>
  );
}

function VerificationPanel({ user }: { user: AuthUser }) {
  const { t } = useTranslation();
  const [sent, setSent] = useState<string | null>(null);
  const { onSubmit, submitting, failure } = useApiForm({
    initialValues: {},
    submit: sendVerificationEmail,
    onSuccess: setSent,
  });
  return (
    <Section id="profile-verification" title={t('E-mail confirmation')}>
      {user.status === 'verified' ? (
        <Text size="sm">
          {t('Confirmed on {{date}}.', {
            date: user.email_verified_at ? formatDateTime(user.email_verified_at) : '',
          })}
        </Text>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Text size="sm">
              {t('Your e-mail address is not confirmed yet. Follow the link in the e-mail we sent you.')}
            </Text>
            <FormFailure failure={failure} fields={[]} />
            {sent && <Done>{sent}</Done>}
            <Button type="submit" variant="default" loading={submitting} w="fit-content">
              {t('Send the e-mail again')}
            </Button>
          </Stack>
        </form>
      )}
    </Section>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const [done, setDone] = useState<string | null>(null);
  const { form, onSubmit, submitting, failure, fields } = useApiForm({
    initialValues: { current_password: '', password: '', password_confirmation: '' },
    submit: (values) => {
      setDone(null);
      return updatePassword(values);
    },
    onSuccess: (message: string, changed) => {
      changed.reset();
      setDone(message);
    },
  });

  return (
    <Section id="profile-password" title={t('Password')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <FormFailure failure={failure} fields={fields} />
          {done && (
            <Done>
              {done} {t('Your other sessions have been signed out.')}
            </Done>
          )}
          <PasswordField
            label={t('Current password')}
            name="current_password"
            autoComplete="current-password"
            {...form.getInputProps('current_password')}
          />
          <NewPasswordFields
            passwordLabel={t('New password')}
            password={form.getInputProps('password')}
            confirmation={form.getInputProps('password_confirmation')}
          />
          <Button type="submit" loading={submitting} w="fit-content">
            {t('Change password')}
          </Button>
        </Stack>
      </form>
    </Section>
  );
}
