import { type AnyDb, primaryId, timeType } from './support.js';

/** Organisations, users, access control, sessions, tokens, the mail outbox and rate limits. */
export async function up(db: AnyDb): Promise<void> {
  const time = timeType(db);
  const id = primaryId(db);

  await db.schema
    .createTable('organisations')
    .addColumn('id', 'integer', id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('acl_modules')
    .addColumn('id', 'integer', id)
    .addColumn('slug', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_client_system', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('acl_roles')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_client_system', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_admin_role', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('acl_roles_organisation_idx')
    .on('acl_roles')
    .column('organisation_id')
    .execute();

  await db.schema
    .createTable('acl_role_modules')
    .addColumn('acl_role_id', 'integer', (c) => c.notNull().references('acl_roles.id').onDelete('cascade'))
    .addColumn('acl_module_id', 'integer', (c) =>
      c.notNull().references('acl_modules.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('acl_role_modules_pk', ['acl_role_id', 'acl_module_id'])
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('regular'))
    .addColumn('acl_role_id', 'integer', (c) => c.references('acl_roles.id').onDelete('set null'))
    .addColumn('email_verified_at', time)
    .addColumn('locale', 'varchar(8)', (c) => c.notNull().defaultTo('ru'))
    .addColumn('disabled_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_organisation_idx').on('users').column('organisation_id').execute();
  await db.schema.createIndex('users_acl_role_idx').on('users').column('acl_role_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('last_activity_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('personal_access_tokens')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('single_use', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', time)
    .addColumn('last_used_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('personal_access_tokens_user_idx')
    .on('personal_access_tokens')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('user_tokens')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('used_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_tokens_user_purpose_idx')
    .on('user_tokens')
    .columns(['user_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', (c) => c.references('organisations.id').onDelete('cascade'))
    .addColumn('to_address', 'varchar(255)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    .addColumn('locked_until', time)
    .addColumn('sent_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mail_outbox_due_idx')
    .on('mail_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .execute();

  // The access-control modules of docs/contract.md, "Screens and routes"/"Roles and permissions" are reference data: seeded here, the same everywhere.
  const modules: [string, string][] = [
    ['dashboard', 'Главная'],
    ['telemetry', 'Телеметрия'],
    ['requests', 'Жалобы'],
    ['device_event_template', 'Шаблоны тока'],
    ['recipes', 'Рецепты'],
    ['addresses', 'Адреса'],
    ['devices', 'Оборудование'],
    ['users', 'Пользователи'],
    ['settings', 'Настройки'],
    ['billing', 'Биллинг'],
  ];
  await db
    .insertInto('acl_modules')
    .values(modules.map(([slug, name]) => ({ slug, name, is_client_system: 1 })))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'rate_limits',
    'mail_outbox',
    'user_tokens',
    'personal_access_tokens',
    'sessions',
    'users',
    'acl_role_modules',
    'acl_roles',
    'acl_modules',
    'organisations',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
