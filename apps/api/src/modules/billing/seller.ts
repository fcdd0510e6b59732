import { organisationDetailsSchema } from '@kontrol/contracts';
import { readFileSync } from 'node:fs';
import type { DocumentParty } from './billing-pdf.js';

/**
 * The service provider's requisites, printed on every invoice and act as the seller. Set them with
 * BILLING_SELLER_FILE, a JSON file of the same fields as an organisation's details
 * (docs/billing.md "The provider's requisites"); without it a demo provider with check digits that
 * pass but no real company behind them.
 */
export const DEMO_SELLER: DocumentParty = {
  legal_name: 'ООО «Контроль» (демо)',
  inn: '7701234560',
  kpp: '770101001',
  ogrn: '1027700123450',
  legal_address: '101000, г. Москва, ул. Мясницкая, д. 1',
  bank_name: 'ПАО Сбербанк',
  bik: '044525225',
  correspondent_account: '30101810400000000225',
  settlement_account: '40702810500000001234',
  director: 'Иванов Иван Иванович',
  accountant: 'Петрова Мария Сергеевна',
};

export class SellerFileError extends Error {}

/** The seller of `file` (checked like an organisation's details), or the demo one without a file. */
export function loadSeller(file: string | undefined): DocumentParty {
  if (file === undefined) return DEMO_SELLER;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SellerFileError(`BILLING_SELLER_FILE ${file}: ${(error as Error).message}`);
  }
  const parsed = organisationDetailsSchema.safeParse(raw);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new SellerFileError(`BILLING_SELLER_FILE ${file}: invalid or missing fields: ${fields}`);
  }
  const seller = parsed.data;
  return {
    legal_name: seller.legal_name,
    inn: seller.inn,
    kpp: seller.kpp ?? null,
    ogrn: seller.ogrn,
    legal_address: seller.legal_address,
    bank_name: seller.bank_name,
    bik: seller.bik,
    correspondent_account: seller.correspondent_account,
    settlement_account: seller.settlement_account,
    director: seller.director,
    accountant: seller.accountant ?? null,
  };
}
