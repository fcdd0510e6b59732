import { WEEKDAYS, type Weekday } from '@kontrol/contracts';
import { Button, Fieldset, Group, Input, Stack, Switch, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { TimeField } from '../../../components/time-field';
import type en from '../../../locales/en/translation.json';
import type { AddressFormValues, WorkTimeFormValue } from './address-form-values';

const DAY_NAMES: Record<Weekday, keyof typeof en> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/**
 * The weekly work time of an address: a row per weekday, Monday first, each switched on (open,
 * with opening and closing times) or off (closed). Server messages show under their time, day or
 * the whole week (`work_time.mon.open`, `work_time.mon`, `work_time`).
 */
export function WorkTimeEditor({ form }: { form: UseFormReturnType<AddressFormValues> }) {
  const { t } = useTranslation();
  const weekError = form.errors.work_time;

  const copyMondayToAll = () => {
    const monday = form.getValues().work_time.mon;
    form.setFieldValue(
      'work_time',
      Object.fromEntries(WEEKDAYS.map((day) => [day, { ...monday }])) as WorkTimeFormValue,
    );
  };

  return (
    <Fieldset
      legend={t('Work time')}
      variant="unstyled"
      // The legend reads like the labels of the fields around it.
      styles={{ legend: { fontWeight: 500, fontSize: 'var(--mantine-font-size-sm)', marginBottom: 4 } }}
    >
      <Stack gap="xs">
        {WEEKDAYS.map((day) => {
          const name = t(DAY_NAMES[day]);
          const works = form.getValues().work_time[day].works;
          const dayError = form.errors[`work_time.${day}`];
          return (
            <Group key={day} gap="sm" align="flex-start" wrap="wrap" mih={36}>
              <Switch
                label={name}
                w={150}
                mt={8}
                {...form.getInputProps(`work_time.${day}.works`, { type: 'checkbox' })}
              />
              {works ? (
                <Group gap={6} align="flex-start" wrap="nowrap">
                  <TimeField
                    w={124}
                    aria-label={t('{{day}}, opens at', { day: name })}
                    {...form.getInputProps(`work_time.${day}.open`)}
                  />
                  <Text aria-hidden="true" mt={6}>
                    –
                  </Text>
                  <TimeField
                    w={124}
                    aria-label={t('{{day}}, closes at', { day: name })}
                    {...form.getInputProps(`work_time.${day}.close`)}
                  />
                </Group>
              ) : (
                <Text c="dimmed" size="sm" mt={8}>
                  {t('Closed')}
                </Text>
              )}
              {dayError && <Input.Error w="100%">{dayError}</Input.Error>}
            </Group>
          );
        })}
        {weekError && <Input.Error>{weekError}</Input.Error>}
        <Text size="xs" c="dimmed">
          {t(
            'A closing time earlier than the opening time means the site works past midnight, e.g. 22:00–02:00.',
          )}
        </Text>
        <Button variant="default" size="xs" w="fit-content" onClick={copyMondayToAll}>
          {t('Copy Monday to all days')}
        </Button>
      </Stack>
    </Fieldset>
  );
}
