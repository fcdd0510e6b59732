import { isLocale, type Locale } from '@kontrol/contracts';
import { SegmentedControl, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { getLocale, setLocale } from '../lib/i18n';

/** Each language named in itself, so a reader of either can find their own. */
const LANGUAGES: { value: Locale; short: string; name: string }[] = [
  { value: 'ru', short: 'RU', name: 'Русский' },
  { value: 'en', short: 'EN', name: 'English' },
];

const data = LANGUAGES.map(({ value, short, name }) => ({
  value,
  label: (
    <span lang={value}>
      <span aria-hidden="true">{short}</span>
      <VisuallyHidden>{name}</VisuallyHidden>
    </span>
  ),
}));

/** RU/EN switch; the choice is remembered in local storage (SPEC §9). */
export function LanguageSwitch() {
  const { t } = useTranslation(); // re-renders this switch when the language changes
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('Interface language')}
      data={data}
      value={getLocale()}
      onChange={(value) => {
        if (isLocale(value)) void setLocale(value);
      }}
    />
  );
}
