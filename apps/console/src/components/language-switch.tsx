import { isLocale, type Locale } from '@kontrol/contracts';
import { VisuallyHidden } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { getLocale, setLocale } from '../lib/i18n';
import classes from './language-switch.module.css';

/** Each language named in itself, so a reader of either can find their own. */
const LANGUAGES: { value: Locale; short: string; name: string }[] = [
  { value: 'ru', short: 'RU', name: 'Русский' },
  { value: 'en', short: 'EN', name: 'English' },
];

/**
 * RU/EN switch; the choice is remembered in local storage (docs/contract.md, "Constants and limits"). A radio group of native
 * radios (arrow keys move between them), styled as a segmented control by CSS alone: nothing is
 * measured when it mounts, so the first render of every page commits without a forced layout.
 */
export function LanguageSwitch() {
  const { t } = useTranslation(); // re-renders this switch when the language changes
  const name = useId();
  const current = getLocale();
  return (
    <div role="radiogroup" aria-label={t('Interface language')} className={classes.root}>
      {LANGUAGES.map(({ value, short, name: language }) => (
        <label key={value} lang={value} className={classes.item}>
          <input
            type="radio"
            className={classes.input}
            name={name}
            value={value}
            checked={current === value}
            onChange={(event) => {
              if (isLocale(event.currentTarget.value)) void setLocale(event.currentTarget.value);
            }}
          />
          <span aria-hidden="true">{short}</span>
          <VisuallyHidden>{language}</VisuallyHidden>
        </label>
      ))}
    </div>
  );
}
