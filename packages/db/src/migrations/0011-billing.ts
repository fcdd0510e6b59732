import { type AnyDb, isPostgres, primaryId, timeType } from './support.js';

/**
 * Billing (docs/billing.md):
 *
 * - `billing_accounts`: one per organisation: the balance (the ledger's running sum, updated in
 *   the same transaction as each entry, which also serialises writers of one organisation), the
 *   tariff when the operator set one, the first billing day charged and the last one the daily
 *   job has handled. Made on
 *   first use (the daily job, a payment, a read), so organisations of any age have one.
 * - `ledger_entries`: the append-only ledger. `reference` names what an entry is for
 *   (`charge:<day>`, `payment:<id>`, `invoice:<id>`) and is unique per organisation, which makes
 *   the daily charge and payment callbacks idempotent across retries and instances.
 * - `organisation_details`: the requisites invoices and acts carry.
 * - `payments`: payments through a provider; `billing_documents`: invoices and acts with their
 *   PDF; `document_counters`: the running number of each kind per year (no gaps, no duplicates).
 */
export async function up(db: AnyDb): Promise<void> {
  const time = timeType(db);
  const id = primaryId(db);
  const big = isPostgres(db) ? 'bigint' : 'integer';
  const bytes = isPostgres(db) ? 'bytea' : 'blob';

  await db.schema
    .createTable('billing_accounts')
    .addColumn('organisation_id', 'integer', (c) =>
      c.primaryKey().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('balance', big, (c) => c.notNull().defaultTo(0))
    .addColumn('daily_rate', 'integer')
    .addColumn('charges_from', 'varchar(10)', (c) => c.notNull())
    .addColumn('charged_through', 'varchar(10)')
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('amount', big, (c) => c.notNull())
    .addColumn('balance_after', big, (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull())
    .addColumn('reference', 'varchar(64)')
    .addColumn('quantity', 'integer')
    .addColumn('unit_price', 'integer')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_entries_reference_idx')
    .on('ledger_entries')
    .columns(['organisation_id', 'reference'])
    .unique()
    .execute();
  await db.schema
    .createIndex('ledger_entries_organisation_idx')
    .on('ledger_entries')
    .columns(['organisation_id', 'id'])
    .execute();

  await db.schema
    .createTable('organisation_details')
    .addColumn('organisation_id', 'integer', (c) =>
      c.primaryKey().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('legal_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('inn', 'varchar(12)', (c) => c.notNull())
    .addColumn('kpp', 'varchar(9)')
    .addColumn('ogrn', 'varchar(15)', (c) => c.notNull())
    .addColumn('legal_address', 'varchar(500)', (c) => c.notNull())
    .addColumn('postal_address', 'varchar(500)')
    .addColumn('bank_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('bik', 'varchar(9)', (c) => c.notNull())
    .addColumn('correspondent_account', 'varchar(20)', (c) => c.notNull())
    .addColumn('settlement_account', 'varchar(20)', (c) => c.notNull())
    .addColumn('director', 'varchar(255)', (c) => c.notNull())
    .addColumn('accountant', 'varchar(255)')
    .addColumn('documents_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('external_id', 'varchar(128)')
    .addColumn('amount', big, (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('confirmation_url', 'varchar(1000)')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('completed_at', time)
    .execute();
  await db.schema
    .createIndex('payments_external_idx')
    .on('payments')
    .columns(['provider', 'external_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('payments_organisation_idx')
    .on('payments')
    .columns(['organisation_id', 'id'])
    .execute();

  await db.schema
    .createTable('document_counters')
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last_sequence', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_counters_pk', ['kind', 'year'])
    .execute();

  await db.schema
    .createTable('billing_documents')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('amount', big, (c) => c.notNull())
    .addColumn('vat', big, (c) => c.notNull())
    .addColumn('vat_percent', 'real', (c) => c.notNull())
    .addColumn('period', 'varchar(7)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('paid_at', time)
    .addColumn('pdf', bytes, (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('billing_documents_number_idx')
    .on('billing_documents')
    .columns(['kind', 'year', 'sequence'])
    .unique()
    .execute();
  // One act per organisation and month (invoices have no period; NULLs never collide).
  await db.schema
    .createIndex('billing_documents_period_idx')
    .on('billing_documents')
    .columns(['organisation_id', 'kind', 'period'])
    .unique()
    .execute();
  await db.schema
    .createIndex('billing_documents_organisation_idx')
    .on('billing_documents')
    .columns(['organisation_id', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'billing_documents',
    'document_counters',
    'payments',
    'organisation_details',
    'ledger_entries',
    'billing_accounts',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
