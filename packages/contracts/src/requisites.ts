import { z } from 'zod';
import { nameSchema, refuseNonName } from './names.js';
import { optionalText } from './places.js';

/**
 * Russian company requisites (DOMAIN.md "Money and documents (Russia)"): the checks by their
 * official control digits, and the body of `POST /api/users/update_organization` that carries them
 * onto invoices and acts.
 */

const INN_10_WEIGHTS = [2, 4, 10, 3, 5, 9, 4, 6, 8] as const;
const INN_12_FIRST_WEIGHTS = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8] as const;
const INN_12_SECOND_WEIGHTS = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8] as const;
const ACCOUNT_WEIGHTS = [7, 1, 3] as const;

const digitsOnly = (value: string, length: number) => value.length === length && /^\d+$/.test(value);

/** Σ digit × weight over the leading digits of `value` (weights as long as the digits they cover). */
function weightedSum(value: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i += 1) sum += Number(value[i]) * (weights[i] ?? 0);
  return sum;
}

/** The check digit of an INN: (Σ digit × weight mod 11) mod 10. */
const innControl = (value: string, weights: readonly number[]) => (weightedSum(value, weights) % 11) % 10;

/** `value` (decimal digits, any length) mod `divisor`, digit by digit so long numbers stay exact. */
function digitsMod(value: string, divisor: number): number {
  let rest = 0;
  for (const digit of value) rest = (rest * 10 + Number(digit)) % divisor;
  return rest;
}

/** Weights 7, 1, 3 repeated over every digit; a bank account is right when the sum ends in 0. */
function accountSumEndsInZero(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) sum += Number(digits[i]) * (ACCOUNT_WEIGHTS[i % 3] ?? 0);
  return sum % 10 === 0;
}

/** INN: 10 digits (company; digit 10 = (Σ d×[2,4,10,3,5,9,4,6,8] mod 11) mod 10) or 12 digits (entrepreneur; digits 11 and 12 likewise with [7,2,4,10,3,5,9,4,6,8] and [3,7,2,4,10,3,5,9,4,6,8]). */
export function isValidInn(value: string): boolean {
  if (digitsOnly(value, 10)) return innControl(value, INN_10_WEIGHTS) === Number(value[9]);
  if (digitsOnly(value, 12)) {
    return (
      innControl(value, INN_12_FIRST_WEIGHTS) === Number(value[10]) &&
      innControl(value, INN_12_SECOND_WEIGHTS) === Number(value[11])
    );
  }
  return false;
}

/** Whose INN this is: a valid 10-digit INN is a company's, a valid 12-digit one an entrepreneur's; anything else is null. */
export function innKind(value: string): 'company' | 'entrepreneur' | null {
  if (!isValidInn(value)) return null;
  return value.length === 10 ? 'company' : 'entrepreneur';
}

/** KPP: 9 characters — 4 digits (tax office), 2 digits or capital Latin letters (reason), 3 digits. */
export function isValidKpp(value: string): boolean {
  return /^\d{4}[0-9A-Z]{2}\d{3}$/.test(value);
}

/** OGRN: 13 digits; the last = (the first 12 as a number mod 11) mod 10. */
export function isValidOgrn(value: string): boolean {
  return digitsOnly(value, 13) && digitsMod(value.slice(0, 12), 11) % 10 === Number(value[12]);
}

/** OGRNIP: 15 digits; the last = (the first 14 as a number mod 13) mod 10. */
export function isValidOgrnip(value: string): boolean {
  return digitsOnly(value, 15) && digitsMod(value.slice(0, 14), 13) % 10 === Number(value[14]);
}

/** BIK: 9 digits starting with `04` (the country code of Russia). */
export function isValidBik(value: string): boolean {
  return digitsOnly(value, 9) && value.startsWith('04');
}

/** Correspondent account: 20 digits starting with `301`; Σ of `'0' + bik[4..6] + account` × 7,1,3 repeated ends in 0. */
export function isValidCorrespondentAccount(bik: string, account: string): boolean {
  return (
    isValidBik(bik) &&
    digitsOnly(account, 20) &&
    account.startsWith('301') &&
    accountSumEndsInZero(`0${bik.slice(4, 6)}${account}`)
  );
}

/** Settlement account: 20 digits; Σ of `bik[6..9] + account` × 7,1,3 repeated ends in 0. */
export function isValidSettlementAccount(bik: string, account: string): boolean {
  return isValidBik(bik) && digitsOnly(account, 20) && accountSumEndsInZero(`${bik.slice(6, 9)}${account}`);
}

export const LEGAL_NAME_MAX_LENGTH = 255;
export const LEGAL_ADDRESS_MAX_LENGTH = 500;
export const BANK_NAME_MAX_LENGTH = 255;
export const SIGNATORY_NAME_MAX_LENGTH = 255;
export const DOCUMENTS_EMAIL_MAX_LENGTH = 254;

const requiredText = (max: number) => z.string().trim().min(1).max(max);
/** Checked against the INN or the BIK once the whole body is read (see the refinement below). */
const linkedText = z.string().trim().min(1);

/** By the number of digits alone, so a mistyped INN still tells which of KPP/OGRN/OGRNIP to expect. */
function innShape(inn: string): 'company' | 'entrepreneur' | null {
  if (digitsOnly(inn, 10)) return 'company';
  if (digitsOnly(inn, 12)) return 'entrepreneur';
  return null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * `POST /api/users/update_organization`: the organisation's requisites for documents. A company
 * (10-digit INN) gives a KPP and a 13-digit OGRN; an entrepreneur (12-digit INN) has no KPP and gives
 * a 15-digit OGRNIP. Accounts are checked with the BIK. Empty optional texts become null.
 */
export const organisationDetailsSchema = z
  .object({
    legal_name: nameSchema(LEGAL_NAME_MAX_LENGTH),
    inn: z
      .string()
      .trim()
      .min(1)
      .refine((value) => value === '' || isValidInn(value), { params: { key: 'field.inn' } }),
    /** Required for a company, absent (null or '') for an entrepreneur. */
    kpp: z
      .string()
      .trim()
      .nullish()
      .transform((value) => (value ? value : null)),
    /** OGRN for a company, OGRNIP for an entrepreneur. */
    ogrn: linkedText,
    legal_address: requiredText(LEGAL_ADDRESS_MAX_LENGTH),
    postal_address: optionalText(LEGAL_ADDRESS_MAX_LENGTH),
    bank_name: requiredText(BANK_NAME_MAX_LENGTH),
    bik: z
      .string()
      .trim()
      .min(1)
      .refine((value) => value === '' || isValidBik(value), { params: { key: 'field.bik' } }),
    correspondent_account: linkedText,
    settlement_account: linkedText,
    director: nameSchema(SIGNATORY_NAME_MAX_LENGTH),
    accountant: optionalText(SIGNATORY_NAME_MAX_LENGTH).superRefine(refuseNonName),
    documents_email: z.string().trim().pipe(z.email().max(DOCUMENTS_EMAIL_MAX_LENGTH)),
  })
  .strict()
  .superRefine(
    (body, ctx) => {
      // Runs even when other fields failed, so every wrong field is reported at once; a field of
      // the wrong type reads as '' here and has its own issue already.
      const inn = text(body.inn);
      const kpp = text(body.kpp);
      const ogrn = text(body.ogrn);
      const bik = text(body.bik);
      const correspondent = text(body.correspondent_account);
      const settlement = text(body.settlement_account);
      const fail = (field: keyof typeof body, key: string) =>
        ctx.addIssue({ code: 'custom', path: [field], params: { key }, input: body[field] });

      const shape = innShape(inn);
      if (shape === 'company' && !kpp) fail('kpp', 'field.required');
      else if (shape === 'company' && !isValidKpp(kpp)) fail('kpp', 'field.kpp');
      else if (shape === 'entrepreneur' && kpp) fail('kpp', 'field.kpp_for_entrepreneur');
      else if (shape === null && kpp && !isValidKpp(kpp)) fail('kpp', 'field.kpp');

      if (ogrn) {
        if (shape === 'company' && !isValidOgrn(ogrn)) fail('ogrn', 'field.ogrn');
        else if (shape === 'entrepreneur' && !isValidOgrnip(ogrn)) fail('ogrn', 'field.ogrnip');
        else if (shape === null && !isValidOgrn(ogrn) && !isValidOgrnip(ogrn)) fail('ogrn', 'field.ogrn');
      }

      // With a wrong BIK the accounts can only be checked for their form; the BIK has its own issue.
      const bikOk = isValidBik(bik);
      if (
        correspondent &&
        (bikOk
          ? !isValidCorrespondentAccount(bik, correspondent)
          : !(digitsOnly(correspondent, 20) && correspondent.startsWith('301')))
      ) {
        fail('correspondent_account', 'field.correspondent_account');
      }
      if (settlement && (bikOk ? !isValidSettlementAccount(bik, settlement) : !digitsOnly(settlement, 20))) {
        fail('settlement_account', 'field.settlement_account');
      }
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );
export type OrganisationDetails = z.output<typeof organisationDetailsSchema>;
/** What the console sends (optional texts may be '', null or left out). */
export type OrganisationDetailsBody = z.input<typeof organisationDetailsSchema>;
