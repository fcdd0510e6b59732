import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerBodySchema } from './auth.js';
import { topUpBodySchema } from './billing.js';
import { issuesToFieldErrors, pickLocale, translate } from './messages.js';
import { filtersParamSchema } from './pagination.js';

describe('pickLocale', () => {
  it.each([
    [undefined, 'ru'],
    ['', 'ru'],
    ['en', 'en'],
    ['en-GB,en;q=0.9', 'en'],
    ['de-DE,de;q=0.9,en;q=0.8,ru;q=0.7', 'en'],
    ['en;q=0.5,ru;q=0.8', 'ru'],
    ['fr, de', 'ru'],
    ['en;q=0', 'ru'],
  ])('%j → %s', (header, expected) => {
    expect(pickLocale(header)).toBe(expected);
  });
});

describe('translate', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('en', 'auth.throttle', { seconds: 42 })).toBe(
      'Too many login attempts. Please try again in 42 seconds.',
    );
    expect(translate('ru', 'auth.throttle', {})).toContain('{seconds}');
  });
});

describe('field errors from zod issues', () => {
  const errorsOf = (schema: z.ZodType, input: unknown, locale: 'ru' | 'en') => {
    const result = schema.safeParse(input, { reportInput: true });
    if (result.success) throw new Error('expected a failure');
    return issuesToFieldErrors(result.error.issues, locale);
  };

  it('words each failure so a person understands it, in both languages', () => {
    const input = {
      name: '',
      email: 'nope',
      password: 'short',
      password_confirmation: 'short',
      locale: 'de',
    };
    expect(errorsOf(registerBodySchema, input, 'en')).toEqual({
      name: ['This field is required.'],
      email: ['Enter a valid e-mail address.'],
      password: ['Must be at least 8 characters.'],
      locale: ['Must be one of: ru, en.'],
    });
    expect(errorsOf(registerBodySchema, input, 'ru')).toEqual({
      name: ['Обязательное поле.'],
      email: ['Введите корректный e-mail.'],
      password: ['Не короче 8 символов.'],
      locale: ['Допустимые значения: ru, en.'],
    });
  });

  it('tells a missing field from a wrong type, and names nested paths with dots', () => {
    const schema = z.object({ steps: z.array(z.object({ minutes: z.number().int().max(600) })) });
    expect(errorsOf(schema, { steps: [{ minutes: 1.5 }, { minutes: 900 }, {}] }, 'en')).toEqual({
      'steps.0.minutes': ['Must be a whole number.'],
      'steps.1.minutes': ['Must not be greater than 600.'],
      'steps.2.minutes': ['This field is required.'],
    });
    expect(errorsOf(z.object({ n: z.number() }), { n: 'x' }, 'en')).toEqual({
      n: ['The value has the wrong type.'],
    });
  });

  it('uses the catalog message a schema names for a custom rule', () => {
    const input = {
      name: 'A',
      email: 'a@b.test',
      password: 'long-enough',
      password_confirmation: 'different',
    };
    expect(errorsOf(registerBodySchema, input, 'en')).toEqual({
      password: ['The password confirmation does not match.'],
    });
  });

  it("names a top-up's limits in roubles as the reader writes numbers", () => {
    const schema = topUpBodySchema({ min_amount: 500_50, max_amount: 2_500_000_00 });
    expect(schema.safeParse({ amount: 500_50 }).success).toBe(true);
    expect(schema.safeParse({ amount: 2_500_000_00 }).success).toBe(true);
    expect(errorsOf(schema, { amount: 500_49 }, 'ru')).toEqual({
      amount: ['Сумма — от 500,5 до 2\u00a0500\u00a0000 ₽.'],
    });
    expect(errorsOf(schema, { amount: 2_500_000_01 }, 'en')).toEqual({
      amount: ['The amount must be from 500.5 to 2,500,000 ₽.'],
    });
  });

  it('reports each unknown key of a strict object on its own path', () => {
    expect(errorsOf(z.strictObject({ a: z.string() }), { a: 'x', b: 1, c: 2 }, 'en')).toEqual({
      b: ['Unknown field.'],
      c: ['Unknown field.'],
    });
  });
});

describe('filtersParamSchema', () => {
  it('accepts the object form and the same object as JSON', () => {
    const filters = { name: { operator: 'like', value: 'oven' } };
    expect(filtersParamSchema.parse(filters)).toEqual(filters);
    expect(filtersParamSchema.parse(JSON.stringify(filters))).toEqual(filters);
  });

  it('refuses unknown operators and malformed JSON', () => {
    expect(filtersParamSchema.safeParse({ name: { operator: 'drop', value: 'x' } }).success).toBe(false);
    expect(filtersParamSchema.safeParse('{"name":').success).toBe(false);
  });
});
