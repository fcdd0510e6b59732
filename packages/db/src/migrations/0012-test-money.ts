import { sql } from 'kysely';
import type { AnyDb } from './support.js';

/**
 * `ledger_entries.test_money`: 1 on a credit nobody paid — one through the sandbox payment
 * provider, or the demo's top-up — so the history and its CSV tell test money from real money for
 * good, whatever provider is configured later (docs/billing.md "Money"). Entries written before
 * this migration are marked from what they record: the credit of a sandbox payment
 * (`payment:<id>` of a payment whose provider is `sandbox`) and the demo's top-up (`demo:top-up`).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('ledger_entries')
    .addColumn('test_money', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update ledger_entries set test_money = 1
     where kind = 'payment'
       and (reference = 'demo:top-up'
         or exists (select 1 from payments
                     where payments.organisation_id = ledger_entries.organisation_id
                       and payments.provider = 'sandbox'
                       and ledger_entries.reference = 'payment:' || payments.id))`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('ledger_entries').dropColumn('test_money').execute();
}
