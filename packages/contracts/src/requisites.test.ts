import { describe, expect, it } from 'vitest';
import { issuesToFieldErrors } from './messages.js';
import {
  innKind,
  isValidBik,
  isValidCorrespondentAccount,
  isValidInn,
  isValidKpp,
  isValidOgrn,
  isValidOgrnip,
  isValidSettlementAccount,
  organisationDetailsSchema,
} from './requisites.js';

// Real-format requisites; every control digit below was also checked by a separate calculation.
const SBER = {
  inn: '7707083893',
  kpp: '773601001',
  ogrn: '1027700132195',
  bik: '044525225',
  correspondent: '30101810400000000225',
  settlement: '40702810638000000000',
};
const ENTREPRENEUR = { inn: '500100732259', ogrnip: '304500116000157' };

describe('isValidInn', () => {
  it.each(['7707083893', '7736207543', '7728168971', '500100732259', '773173084809'])('accepts %s', (inn) => {
    expect(isValidInn(inn)).toBe(true);
  });

  it.each([
    ['7707083894', 'the check digit changed'],
    ['7707083993', 'a middle digit changed'],
    ['500100732258', 'the second check digit of a 12-digit INN changed'],
    ['500100732269', 'the first check digit of a 12-digit INN changed'],
    ['500100742259', 'a digit of a 12-digit INN changed'],
    ['770708389', '9 digits'],
    ['77070838930', '11 digits'],
    ['5001007322590', '13 digits'],
    ['77O7083893', 'a letter O instead of 0'],
    ['7707 083893', 'a space'],
    ['', 'empty'],
  ])('refuses %s (%s)', (inn) => {
    expect(isValidInn(inn)).toBe(false);
  });
});

describe('innKind', () => {
  it('tells a company from an entrepreneur by a valid INN only', () => {
    expect(innKind('7707083893')).toBe('company');
    expect(innKind('500100732259')).toBe('entrepreneur');
    expect(innKind('7707083894')).toBeNull();
    expect(innKind('500100732258')).toBeNull();
    expect(innKind('123')).toBeNull();
  });
});

describe('isValidKpp', () => {
  it.each(['773601001', '7736AB001', '77360Z001', '123401001'])('accepts %s', (kpp) => {
    expect(isValidKpp(kpp)).toBe(true);
  });

  it.each(['77360100', '7736010011', '773a01001', '7736ab001', 'A73601001', '77360100A', '7736-1001', ''])(
    'refuses %s',
    (kpp) => {
      expect(isValidKpp(kpp)).toBe(false);
    },
  );
});

describe('isValidOgrn and isValidOgrnip', () => {
  it.each(['1027700132195', '1027739642281', '1027700229193', '1027700070518'])('OGRN %s', (ogrn) => {
    expect(isValidOgrn(ogrn)).toBe(true);
  });

  it.each(['1027700132196', '1027700132295', '102770013219', '10277001321950', '102770013219A', ''])(
    'not an OGRN: %s',
    (ogrn) => {
      expect(isValidOgrn(ogrn)).toBe(false);
    },
  );

  it.each(['304500116000157', '316861700133226'])('OGRNIP %s', (ogrnip) => {
    expect(isValidOgrnip(ogrnip)).toBe(true);
  });

  it.each(['304500116000158', '304500116100157', '30450011600015', '3045001160001570', '30450011600015X'])(
    'not an OGRNIP: %s',
    (ogrnip) => {
      expect(isValidOgrnip(ogrnip)).toBe(false);
    },
  );

  it('keeps the two apart', () => {
    expect(isValidOgrnip(SBER.ogrn)).toBe(false);
    expect(isValidOgrn(ENTREPRENEUR.ogrnip)).toBe(false);
  });

  it('is exact for the largest numbers', () => {
    // 10^14 ≡ 9 (mod 13), so 99999999999999 mod 13 = 8; 10^12 ≡ 1 (mod 11), so 999999999999 mod 11 = 0.
    expect(isValidOgrnip('999999999999998')).toBe(true);
    expect(isValidOgrnip('999999999999995')).toBe(false);
    expect(isValidOgrn('9999999999990')).toBe(true);
    expect(isValidOgrn('9999999999991')).toBe(false);
  });
});

describe('isValidBik', () => {
  it.each(['044525225', '044525974', '040349602'])('accepts %s', (bik) => {
    expect(isValidBik(bik)).toBe(true);
  });

  it.each(['054525225', '04452522', '0445252250', '04452522A', ''])('refuses %s', (bik) => {
    expect(isValidBik(bik)).toBe(false);
  });
});

describe('bank accounts against the BIK', () => {
  it.each([
    ['044525225', '30101810400000000225'],
    ['044525974', '30101810145250000974'],
    ['044525187', '30101810700000000187'],
  ])('correspondent account of %s: %s', (bik, account) => {
    expect(isValidCorrespondentAccount(bik, account)).toBe(true);
  });

  it.each([
    [SBER.bik, '30101810400000000226', 'the last digit changed'],
    [SBER.bik, '30101810500000000225', 'the control digit changed'],
    ['040349602', SBER.correspondent, 'checked with a BIK of another region'],
    [SBER.bik, '3010181040000000022', '19 digits'],
    [SBER.bik, '301018104000000002250', '21 digits'],
    [SBER.bik, '3010181040000000022A', 'a letter'],
    [SBER.bik, '40702810638000000000', 'does not start with 301'],
    ['04452522', SBER.correspondent, 'a BIK of 8 digits'],
  ])('refuses %s / %s (%s)', (bik, account) => {
    expect(isValidCorrespondentAccount(bik, account)).toBe(false);
  });

  it.each([
    [SBER.bik, '40702810638000000000'],
    [SBER.bik, '40817810438000000001'],
  ])('settlement account with BIK %s: %s', (bik, account) => {
    expect(isValidSettlementAccount(bik, account)).toBe(true);
  });

  it.each([
    [SBER.bik, '40702810938000000000', 'a wrong control digit'],
    [SBER.bik, '40702810638000000001', 'the last digit changed'],
    ['044525974', '40702810638000000000', 'checked with another BIK'],
    [SBER.bik, '4070281063800000000', '19 digits'],
    [SBER.bik, '4070281063800000000O', 'a letter'],
    ['', '40702810638000000000', 'no BIK'],
  ])('refuses %s / %s (%s)', (bik, account) => {
    expect(isValidSettlementAccount(bik, account)).toBe(false);
  });
});

describe('organisationDetailsSchema', () => {
  const company = {
    legal_name: '  ООО «Кухни будущего»  ',
    inn: SBER.inn,
    kpp: SBER.kpp,
    ogrn: SBER.ogrn,
    legal_address: '117312, г. Москва, ул. Вавилова, д. 19',
    postal_address: '',
    bank_name: 'ПАО Сбербанк',
    bik: SBER.bik,
    correspondent_account: SBER.correspondent,
    settlement_account: SBER.settlement,
    director: 'Иванов Иван Иванович',
    accountant: null,
    documents_email: ' docs@kitchen.test ',
  };
  const entrepreneur = {
    ...company,
    legal_name: 'ИП Петров Пётр Петрович',
    inn: ENTREPRENEUR.inn,
    kpp: '',
    ogrn: ENTREPRENEUR.ogrnip,
  };

  const fieldErrors = (input: unknown) => {
    const result = organisationDetailsSchema.safeParse(input);
    if (result.success) throw new Error('expected a failure');
    return issuesToFieldErrors(result.error.issues, 'en');
  };

  it('parses a whole company body, trimming texts and turning empty optionals into null', () => {
    expect(organisationDetailsSchema.parse(company)).toEqual({
      ...company,
      legal_name: 'ООО «Кухни будущего»',
      postal_address: null,
      accountant: null,
      documents_email: 'docs@kitchen.test',
    });
  });

  it('parses an entrepreneur without a KPP, given as empty, null or left out', () => {
    expect(organisationDetailsSchema.parse(entrepreneur).kpp).toBeNull();
    expect(organisationDetailsSchema.parse({ ...entrepreneur, kpp: null }).kpp).toBeNull();
    const withoutKpp: Partial<typeof entrepreneur> = { ...entrepreneur };
    delete withoutKpp.kpp;
    expect(organisationDetailsSchema.parse(withoutKpp).kpp).toBeNull();
  });

  it.each([
    ['legal_name', '', 'This field is required.'],
    ['legal_name', 'x'.repeat(256), 'Must not be longer than 255 characters.'],
    [
      'inn',
      '7707083894',
      'The INN must have 10 digits (company) or 12 (entrepreneur) with valid check digits.',
    ],
    ['inn', '', 'This field is required.'],
    ['kpp', '', 'This field is required.'],
    ['kpp', '77360100', 'The KPP must have 9 characters'],
    ['ogrn', '1027700132196', 'The OGRN of a company must have 13 digits with a valid check digit.'],
    ['ogrn', ENTREPRENEUR.ogrnip, 'The OGRN of a company'],
    ['ogrn', '', 'This field is required.'],
    ['legal_address', ' ', 'This field is required.'],
    ['postal_address', 'x'.repeat(501), 'Must not be longer than 500 characters.'],
    ['bank_name', '', 'This field is required.'],
    ['bik', '054525225', 'The BIK must have 9 digits and start with 04.'],
    ['bik', '', 'This field is required.'],
    ['correspondent_account', '30101810400000000226', 'The correspondent account must have 20 digits'],
    ['correspondent_account', '', 'This field is required.'],
    ['settlement_account', '40702810938000000000', 'The settlement account must have 20 digits'],
    ['director', '', 'This field is required.'],
    ['accountant', 'x'.repeat(256), 'Must not be longer than 255 characters.'],
    ['documents_email', 'not-an-email', 'Enter a valid e-mail address.'],
    ['documents_email', `${'x'.repeat(250)}@a.test`, 'Must not be longer than 254 characters.'],
  ])('reports a bad %s (%j) on that field', (field, value, message) => {
    const errors = fieldErrors({ ...company, [field]: value });
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]).toHaveLength(1);
    expect(errors[field]?.[0]).toContain(message);
  });

  it('checks KPP and OGRNIP the entrepreneur’s way for a 12-digit INN', () => {
    expect(fieldErrors({ ...entrepreneur, kpp: SBER.kpp })).toEqual({
      kpp: ['An individual entrepreneur has no KPP: leave this field empty.'],
    });
    expect(fieldErrors({ ...entrepreneur, ogrn: '304500116000158' })).toEqual({
      ogrn: ['The OGRNIP of an entrepreneur must have 15 digits with a valid check digit.'],
    });
    expect(fieldErrors({ ...entrepreneur, ogrn: SBER.ogrn })).toEqual({
      ogrn: ['The OGRNIP of an entrepreneur must have 15 digits with a valid check digit.'],
    });
  });

  it('with a wrong BIK reports the BIK, not the accounts that are right in form', () => {
    expect(fieldErrors({ ...company, bik: '04452522' })).toEqual({
      bik: ['The BIK must have 9 digits and start with 04.'],
    });
    expect(Object.keys(fieldErrors({ ...company, bik: '04452522', settlement_account: '123' }))).toEqual([
      'bik',
      'settlement_account',
    ]);
  });

  it('reports every wrong field at once, each on its own path', () => {
    const errors = fieldErrors({
      ...company,
      legal_name: undefined,
      inn: '7707083894',
      kpp: 'bad',
      ogrn: '1',
      correspondent_account: '1',
      settlement_account: '1',
      documents_email: 'x',
    });
    expect(Object.keys(errors).sort()).toEqual([
      'correspondent_account',
      'documents_email',
      'inn',
      'kpp',
      'legal_name',
      'ogrn',
      'settlement_account',
    ]);
  });

  it('words the requisite errors in Russian too', () => {
    const result = organisationDetailsSchema.safeParse({ ...entrepreneur, inn: '500100732258', kpp: '1' });
    if (result.success) throw new Error('expected a failure');
    expect(issuesToFieldErrors(result.error.issues, 'ru')).toEqual({
      inn: ['ИНН — 10 цифр для организации или 12 для ИП; контрольная цифра не сходится.'],
      kpp: ['У ИП нет КПП: оставьте поле пустым.'],
    });
  });

  it('refuses unknown fields', () => {
    expect(fieldErrors({ ...company, extra: 1 })).toEqual({ extra: ['Unknown field.'] });
  });
});
