import { describe, expect, it } from 'vitest';
import { userAddBodySchema } from './users.js';
import { issuesToFieldErrors } from './messages.js';
import { nameProblem } from './names.js';

describe('the name rule', () => {
  it.each([
    'Анна Петрова',
    'ООО Ромашка',
    'ООО «Ромашка»',
    'ООО «Ресторанная группа «Северная кухня»»',
    'Cafe 1.5',
    'Кафе 1.5.2',
    'Dr.Smith',
    'St. John’s Kitchen',
    'J.R.R. Tolkien',
    'Иванов И.И.',
    'Яндекс.Еда',
    'Marie-Claire O’Neil',
    'Cafe @ Home',
    'No.1 Burger',
    'Ресторан "Москва"',
    '李小龍',
    'محمد',
    'Kitchen\u00a0№\u00a02',
  ])('accepts %j', (name) => {
    expect(nameProblem(name)).toBeNull();
  });

  it.each([
    ['Ваш аккаунт заблокирован http://evil.test/x', 'field.name_link'],
    ['HTTPS://EVIL.TEST', 'field.name_link'],
    ['ftp://files', 'field.name_link'],
    ['see www.evil', 'field.name_link'],
    ['WWW.EVIL', 'field.name_link'],
    ['evil.com/x', 'field.name_link'],
    ['Go to evil.com', 'field.name_link'],
    ['Evil.COM', 'field.name_link'],
    ['a.b.evil.io:8080/login', 'field.name_link'],
    ['ромашка.рф', 'field.name_link'],
    ['pay at bank-login.xyz now', 'field.name_link'],
    ['10.0.0.1/admin', 'field.name_link'],
    ['ｈｔｔｐ：／／evil', 'field.name_link'],
    ['evil。com', 'field.name_link'],
    ['anna@example.com', 'field.name_email'],
    ['Write to support@evil.test', 'field.name_email'],
    ['Anna\nPetrova', 'field.name_control'],
    ['Anna\tPetrova', 'field.name_control'],
    ['Anna\u0000', 'field.name_control'],
    ['Anna\u0085Petrova', 'field.name_control'],
    ['Anna\u202eavortep', 'field.name_control'],
    ['\u2066Anna\u2069', 'field.name_control'],
    ['Anna\u2028Petrova', 'field.name_control'],
  ])('refuses %j: %s', (name, key) => {
    expect(nameProblem(name)).toBe(key);
  });

  it('answers on the field in words, in both languages', () => {
    const result = userAddBodySchema.safeParse({ name: 'Click http://evil.test', email: 'a@b.test' });
    if (result.success) throw new Error('expected a failure');
    expect(issuesToFieldErrors(result.error.issues, 'ru')).toEqual({
      name: ['Имя не может содержать ссылку или адрес сайта.'],
    });
    expect(issuesToFieldErrors(result.error.issues, 'en')).toEqual({
      name: ['A name cannot contain a link or a web address.'],
    });
  });
});
