import { TimePicker, type TimePickerProps } from '@mantine/dates';
// Layered like @mantine/core's (app/provider.tsx), so theme.css wins over them too.
import '@mantine/dates/styles.layer.css';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A time of day in the interface language (Mantine's TimePicker): the browser's own
 * `<input type="time">` shows `09:00 AM` on a Russian page when the browser itself is English.
 * Both languages read a 24-hour clock (`18:30`), as kitchens do. The value stays the string the
 * API takes: `HH:MM`, or `''` while none (or only half of one) is typed. Hours and minutes are two
 * fields typed in turn (`1830` gives `18:30`); a time pasted as `18:30` fills both.
 */
export interface TimeFieldProps extends Omit<
  TimePickerProps,
  | 'value'
  | 'defaultValue'
  | 'onChange'
  | 'label'
  | 'format'
  | 'withSeconds'
  | 'type'
  | 'hoursInputLabel'
  | 'minutesInputLabel'
  | 'hoursInputProps'
  | 'minutesInputProps'
> {
  /** `HH:MM`, or `''` (or nothing) for none. */
  value?: string;
  onChange: (value: string) => void;
  /** The visible label; without one, `aria-label` names the field. */
  label?: string;
  'aria-label'?: string;
}

export function TimeField({
  value = '',
  onChange,
  label,
  'aria-label': ariaLabel,
  error,
  description,
  clearButtonProps,
  ...props
}: TimeFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const name = label ?? ariaLabel ?? '';
  // The wrapper's error and description, read out from either of the two fields.
  const hasError = Boolean(error) && typeof error !== 'boolean';
  const describedBy =
    [hasError ? `${id}-error` : '', description ? `${id}-description` : ''].filter(Boolean).join(' ') ||
    undefined;
  const fieldProps = { 'aria-describedby': describedBy, 'aria-invalid': hasError || undefined };
  return (
    <TimePicker
      id={id}
      format="24h"
      label={label}
      role="group"
      aria-label={name}
      hoursInputLabel={t('{{field}}, hours', { field: name })}
      minutesInputLabel={t('{{field}}, minutes', { field: name })}
      hoursInputProps={fieldProps}
      minutesInputProps={fieldProps}
      clearButtonProps={{ 'aria-label': t('Clear'), ...clearButtonProps }}
      error={error}
      description={description}
      {...props}
      value={value}
      onChange={onChange}
    />
  );
}
