import {
  LOCALES,
  NOTIFICATION_KINDS,
  NOTIFICATION_SEVERITIES,
  type Locale,
  type NotificationKind,
  type NotificationSeverity,
  type UserSettings,
} from '@kontrol/contracts';
import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { eventKindLabels } from '../lib/labels';
import { useApiForm } from '../lib/use-api-form';
import { FormFailure } from './form-failure';
import { PageLoader } from './page-loader';
import { TimeField } from './time-field';

interface SettingsFormValues extends Record<string, unknown> {
  web: boolean;
  email: boolean;
  telegram: boolean;
  kinds: string[];
  severities: string[];
  quiet: boolean;
  quiet_start: string;
  quiet_end: string;
  quiet_hours_critical: boolean;
  locale: Locale;
  time_zone: string;
}

function toValues(settings: UserSettings): SettingsFormValues {
  return {
    web: settings.channels.web,
    email: settings.channels.email,
    telegram: settings.channels.telegram,
    kinds: [...settings.kinds],
    severities: [...settings.severities],
    quiet: settings.quiet_hours !== null,
    quiet_start: settings.quiet_hours?.start ?? '22:00',
    quiet_end: settings.quiet_hours?.end ?? '08:00',
    quiet_hours_critical: settings.quiet_hours_critical,
    locale: settings.locale,
    time_zone: settings.time_zone,
  };
}

function toBody(values: SettingsFormValues): UserSettings {
  return {
    channels: { web: values.web, email: values.email, telegram: values.telegram },
    // In the contract's order, whatever order they were ticked in.
    kinds: NOTIFICATION_KINDS.filter((kind) => values.kinds.includes(kind)),
    severities: NOTIFICATION_SEVERITIES.filter((severity) => values.severities.includes(severity)),
    quiet_hours: values.quiet ? { start: values.quiet_start, end: values.quiet_end } : null,
    quiet_hours_critical: values.quiet_hours_critical,
    locale: values.locale,
    time_zone: values.time_zone,
  };
}

/** Server field names (`channels.email`, `quiet_hours.end`) → the form's. */
const FIELD_OF: Record<string, string> = {
  'channels.web': 'web',
  'channels.email': 'email',
  'channels.telegram': 'telegram',
  channels: 'web',
  quiet_hours: 'quiet_start',
  'quiet_hours.start': 'quiet_start',
  'quiet_hours.end': 'quiet_end',
};

/** Each language named in itself, so a reader of either can find their own. */
const LANGUAGE_NAMES: Record<Locale, string> = { ru: 'Русский', en: 'English' };

/**
 * Where and which notifications reach a user (`userSettingsSchema`): channels (the console's
 * pop-up, e-mail, Telegram), kinds, severities, quiet hours in the user's time zone, and the
 * language of e-mails and messages. The page loads and saves them (lib/user-settings.ts) and keys
 * the form by the user, so another user's form starts from their own values.
 */
export function NotificationSettingsForm({
  settings: { data, isPending, isError },
  save,
}: {
  settings: { data?: UserSettings | undefined; isPending: boolean; isError: boolean };
  save: (body: UserSettings) => Promise<UserSettings>;
}) {
  const { t } = useTranslation();
  if (isPending) return <PageLoader inline />;
  if (isError) {
    return (
      <Alert color="red" role="alert">
        {t('The notification settings could not be loaded. Please try again later.')}
      </Alert>
    );
  }
  if (!data) return null;
  return <SettingsForm settings={data} save={save} />;
}

function SettingsForm({
  settings,
  save,
}: {
  settings: UserSettings;
  save: (body: UserSettings) => Promise<UserSettings>;
}) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  const { form, onSubmit, submitting, failure, fields } = useApiForm<SettingsFormValues, UserSettings>({
    initialValues: toValues(settings),
    submit: (values) => {
      setSaved(false);
      return save(toBody(values));
    },
    onSuccess: (answer, changed) => {
      changed.setValues(toValues(answer));
      changed.resetDirty(toValues(answer));
      setSaved(true);
    },
  });
  // The server's names for nested fields are put on the form's fields.
  const errorOf = (field: string): string | undefined => {
    const own = form.errors[field];
    const nested = Object.entries(FIELD_OF)
      .filter(([, target]) => target === field)
      .map(([server]) => form.errors[server])
      .filter((message) => typeof message === 'string');
    const all = [...(typeof own === 'string' ? [own] : []), ...nested];
    return all.length > 0 ? all.join(' ') : undefined;
  };
  const kindLabels = useKindLabels();
  const severityLabels: Record<NotificationSeverity, string> = {
    info: t('Information'),
    warning: t('Warning'),
    critical: t('Critical'),
  };
  const shownFields = [...fields, ...Object.keys(FIELD_OF), 'kinds', 'severities'];

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <FormFailure failure={failure} fields={shownFields} />
        {saved && (
          <Alert color="green" role="status">
            {t('Saved.')}
          </Alert>
        )}
        <Fieldset legend={t('Channels')}>
          <Stack gap="xs">
            <Checkbox
              label={t('In the console')}
              description={t('A pop-up while the console is open.')}
              {...form.getInputProps('web', { type: 'checkbox' })}
              error={errorOf('web')}
            />
            <Checkbox
              label={t('E-mail')}
              {...form.getInputProps('email', { type: 'checkbox' })}
              error={errorOf('email')}
            />
            <Checkbox
              label="Telegram"
              description={t('Messages come once the Telegram bot is connected in Settings.')}
              {...form.getInputProps('telegram', { type: 'checkbox' })}
              error={errorOf('telegram')}
            />
          </Stack>
        </Fieldset>
        <Checkbox.Group
          label={t('Notify about')}
          description={t('The notifications list always keeps everything.')}
          {...form.getInputProps('kinds')}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
            {NOTIFICATION_KINDS.map((kind) => (
              <Checkbox key={kind} value={kind} label={kindLabels[kind]} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Checkbox.Group label={t('Severity')} {...form.getInputProps('severities')}>
          <Group gap="lg" mt="xs">
            {NOTIFICATION_SEVERITIES.map((severity) => (
              <Checkbox key={severity} value={severity} label={severityLabels[severity]} />
            ))}
          </Group>
        </Checkbox.Group>
        <Fieldset legend={t('Quiet hours')}>
          <Stack gap="sm">
            <Switch
              label={t('Hold e-mail and Telegram messages')}
              {...form.getInputProps('quiet', { type: 'checkbox' })}
            />
            {form.values.quiet && (
              <>
                <Group gap="sm" align="start" grow>
                  <TimeField
                    label={t('From')}
                    {...form.getInputProps('quiet_start')}
                    error={errorOf('quiet_start')}
                    maw={160}
                  />
                  <TimeField
                    label={t('Until')}
                    {...form.getInputProps('quiet_end')}
                    error={errorOf('quiet_end')}
                    maw={160}
                  />
                </Group>
                <Checkbox
                  label={t('Critical ones still come')}
                  {...form.getInputProps('quiet_hours_critical', { type: 'checkbox' })}
                />
                <Text size="xs" c="dimmed">
                  {t('Messages held back are sent when the quiet hours end.')}
                </Text>
              </>
            )}
          </Stack>
        </Fieldset>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('Language of messages')}
            data={LOCALES.map((locale) => ({ value: locale, label: LANGUAGE_NAMES[locale] }))}
            allowDeselect={false}
            {...form.getInputProps('locale')}
          />
          <TimeZoneSelect
            value={form.values.time_zone}
            onChange={(zone) => {
              if (zone) form.setFieldValue('time_zone', zone);
            }}
            error={errorOf('time_zone')}
            description={t('Quiet hours follow this time zone.')}
          />
        </SimpleGrid>
        <Button type="submit" loading={submitting} w="fit-content">
          {t('Save the notification settings')}
        </Button>
      </Stack>
    </form>
  );
}

/** The kinds' words: device events as the events screens name them, complaints, and device limits. */
function useKindLabels(): Record<NotificationKind, string> {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      ...eventKindLabels(t),
      request: t('Complaints'),
      device_limit: t('A device sends more than its limit'),
    }),
    [t],
  );
}

let zones: string[] | null = null;

/**
 * The IANA zones the browser knows, searchable; the list is built when first opened (a few hundred
 * options), and a zone saved earlier that the browser lacks stays choosable.
 */
function TimeZoneSelect({
  value,
  onChange,
  error,
  description,
}: {
  value: string;
  onChange: (zone: string | null) => void;
  error?: string;
  description: string;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(zones !== null);
  const data = useMemo(() => {
    if (!opened) return [value];
    zones ??= Intl.supportedValuesOf('timeZone');
    return zones.includes(value) ? zones : [value, ...zones];
  }, [opened, value]);
  return (
    <Select
      label={t('Time zone')}
      description={description}
      data={data}
      value={value}
      onChange={onChange}
      onDropdownOpen={() => setOpened(true)}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('Nothing found')}
      maxDropdownHeight={280}
      comboboxProps={{ keepMounted: false }}
      error={error}
    />
  );
}
