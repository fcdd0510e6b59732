import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain Node script without types (scripts/split-locales.mjs)
import { splitRussian } from '../../../../scripts/split-locales.mjs';
import en from '../locales/en/translation.json';
import ruAccount from '../locales/ru/account.json';
import ru from '../locales/ru/translation.json';
import { i18n } from './i18n';

describe('the catalogues', () => {
  it('give every English key its own sentence, so English needs no catalogue at run time', () => {
    for (const [key, text] of Object.entries(en)) expect(text).toBe(key);
    expect([...Object.keys(ru), ...Object.keys(ruAccount)].sort()).toEqual(Object.keys(en).sort());
  });

  it('keep in the first bundle exactly the Russian texts the shell uses (run scripts/split-locales.mjs)', () => {
    const { shell, account } = (splitRussian as () => { shell: object; account: object })();
    expect(Object.keys(ru).sort()).toEqual(Object.keys(shell));
    expect(Object.keys(ruAccount).sort()).toEqual(Object.keys(account));
  });

  it('answer English with the key itself, interpolated, and Russian from its catalogue', async () => {
    const english = i18n.cloneInstance({ lng: 'en' });
    await english.changeLanguage('en');
    expect(english.t('{{hours}} h {{minutes}} min', { hours: 2, minutes: 15 })).toBe('2 h 15 min');
    const russian = i18n.cloneInstance({ lng: 'ru' });
    await russian.changeLanguage('ru');
    expect(russian.t('{{hours}} h {{minutes}} min', { hours: 2, minutes: 15 })).toBe('2 ч 15 мин');
  });
});
