import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@kontrol/contracts';
import { COMMON_PASSWORDS_COUNT, commonPasswords, isCommonPassword } from './common-passwords.js';

describe('common passwords', () => {
  it('holds 10 000 distinct lowercase passwords that the length rule alone would let through', () => {
    const list = [...commonPasswords()];
    expect(list).toHaveLength(COMMON_PASSWORDS_COUNT);
    expect(COMMON_PASSWORDS_COUNT).toBe(10_000);
    for (const password of list) {
      expect(password).toBe(password.toLowerCase());
      expect(password).toBe(password.trim());
      expect(password.length).toBeGreaterThanOrEqual(PASSWORD_MIN_LENGTH);
      expect(password.length).toBeLessThanOrEqual(PASSWORD_MAX_LENGTH);
    }
    // Most common first, as the source ranks them.
    expect(list.slice(0, 3)).toEqual(['password', '12345678', '123456789']);
  });

  it('compares without regard to case or compatibility forms', () => {
    for (const password of ['password', 'PASSWORD', 'PassWord', 'ｐａｓｓｗｏｒｄ', 'Qwerty123', 'iloveyou'])
      expect(isCommonPassword(password), password).toBe(true);
    for (const password of ['', 'password ', 'harbour-ladle-7f3a', 'demo1234'])
      expect(isCommonPassword(password), password).toBe(false);
  });
});
