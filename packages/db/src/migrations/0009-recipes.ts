import { type AnyDb, isPostgres, primaryId, timeType } from './support.js';

/**
 * Recipes, recipe sets and their deployment to devices (docs/recipes.md).
 *
 * - `recipes`: `steps` is JSON; `version` moves on every change of what goes into the program
 *   file, `crc` is that file's CRC32 (hex), kept so lists and the CRC file need no re-encoding.
 * - `recipe_images`: uploaded images, scoped to their organisation, named by the server.
 * - `recipe_sets` (one device type each) and `recipe_set_recipes` (ordered).
 * - `devices.recipe_set_id`: the set a device holds (`POST /devices/{id}/recipe_set/{setId}`).
 * - `device_recipe_binds`: a recipe on a device (the contract's bind ids) and its delivery:
 *   queued → sending → installed | failed, or removing; one bind per device and recipe.
 */
export async function up(db: AnyDb): Promise<void> {
  const time = timeType(db);
  const big = isPostgres(db) ? 'bigint' : 'integer';

  await db.schema
    .createTable('recipe_images')
    .addColumn('file', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recipes')
    .addColumn('id', 'integer', primaryId(db))
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('device_type_id', 'integer', (c) => c.notNull().references('device_types.id'))
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('category', 'varchar(60)')
    .addColumn('description', 'text')
    .addColumn('image', 'varchar(64)')
    .addColumn('steps', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('crc', 'varchar(8)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('duration_seconds', 'integer', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recipes_organisation_name_idx')
    .on('recipes')
    .columns(['organisation_id', 'name'])
    .execute();

  await db.schema
    .createTable('recipe_sets')
    .addColumn('id', 'integer', primaryId(db))
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('device_type_id', 'integer', (c) => c.notNull().references('device_types.id'))
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recipe_sets_organisation_name_idx')
    .on('recipe_sets')
    .columns(['organisation_id', 'name'])
    .execute();

  await db.schema
    .createTable('recipe_set_recipes')
    .addColumn('set_id', 'integer', (c) => c.notNull().references('recipe_sets.id').onDelete('cascade'))
    .addColumn('recipe_id', 'integer', (c) => c.notNull().references('recipes.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('recipe_set_recipes_pk', ['set_id', 'recipe_id'])
    .execute();
  await db.schema
    .createIndex('recipe_set_recipes_recipe_idx')
    .on('recipe_set_recipes')
    .column('recipe_id')
    .execute();

  await db.schema
    .alterTable('devices')
    .addColumn('recipe_set_id', 'integer', (c) => c.references('recipe_sets.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('device_recipe_binds')
    .addColumn('id', 'integer', primaryId(db))
    .addColumn('organisation_id', 'integer', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('recipe_id', 'integer', (c) => c.notNull().references('recipes.id').onDelete('cascade'))
    .addColumn('set_id', 'integer', (c) => c.references('recipe_sets.id').onDelete('set null'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('crc', 'varchar(8)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('error', 'varchar(32)')
    .addColumn('reported_crc', 'varchar(8)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    /** When the device was last told to fetch it (epoch ms): the report timeout runs from here. */
    .addColumn('sent_ts', big)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_recipe_binds_device_recipe_idx')
    .on('device_recipe_binds')
    .columns(['device_id', 'recipe_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('device_recipe_binds_state_idx')
    .on('device_recipe_binds')
    .columns(['state', 'device_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('device_recipe_binds').execute();
  await db.schema.alterTable('devices').dropColumn('recipe_set_id').execute();
  await db.schema.dropTable('recipe_set_recipes').execute();
  await db.schema.dropTable('recipe_sets').execute();
  await db.schema.dropTable('recipes').execute();
  await db.schema.dropTable('recipe_images').execute();
}
