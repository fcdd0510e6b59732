import { describe, expect, it } from 'vitest';
import en from '../locales/en/translation.json';
import ru from '../locales/ru/translation.json';
import { i18n } from './i18n';

describe('the catalogues', () => {
  it('give every English key its own sentence, so English needs no catalogue at run time', () => {
    for (const [key, text] of Object.entries(en)) expect(text).toBe(key);
    expect(Object.keys(ru).sort()).toEqual(Object.keys(en).sort());
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
