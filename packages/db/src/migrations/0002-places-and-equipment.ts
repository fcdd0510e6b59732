import type { ColumnDefinitionBuilder } from 'kysely';
import { type AnyDb, primaryId, timeType } from './support.js';

/**
 * Addresses, rooms, the seeded device types, devices, device groups and the service log (docs/places-and-equipment.md).
 * Structured values (work time, telemetry kinds) are JSON text in both dialects.
 */
export async function up(db: AnyDb): Promise<void> {
  const time = timeType(db);
  const id = primaryId(db);
  const organisation = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('organisations.id').onDelete('cascade');

  await db.schema
    .createTable('addresses')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', organisation)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('full_address', 'varchar(500)', (c) => c.notNull())
    .addColumn('city', 'varchar(255)', (c) => c.notNull())
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
    .addColumn('work_time', 'text', (c) => c.notNull())
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('image_file', 'varchar(128)')
    .addColumn('image_type', 'varchar(32)')
    .addColumn('image_updated_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('addresses_organisation_name_idx')
    .on('addresses')
    .columns(['organisation_id', 'name'])
    .execute();

  await db.schema
    .createTable('rooms')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', organisation)
    .addColumn('address_id', 'integer', (c) => c.notNull().references('addresses.id').onDelete('restrict'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('floor', 'varchar(50)')
    .addColumn('description', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rooms_organisation_idx').on('rooms').column('organisation_id').execute();
  await db.schema.createIndex('rooms_address_idx').on('rooms').column('address_id').execute();

  await db.schema
    .createTable('device_types')
    .addColumn('id', 'integer', id)
    .addColumn('slug', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name_ru', 'varchar(255)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(255)', (c) => c.notNull())
    .addColumn('telemetry', 'text', (c) => c.notNull())
    .addColumn('wash_interval_hours', 'integer')
    .addColumn('program_capacity', 'integer')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db
    .insertInto('device_types')
    .values(
      DEVICE_TYPES.map((type, index) => ({
        slug: type.slug,
        name_ru: type.ru,
        name_en: type.en,
        telemetry: JSON.stringify(type.telemetry),
        wash_interval_hours: type.wash,
        program_capacity: type.programs,
        position: index + 1,
      })),
    )
    .execute();

  await db.schema
    .createTable('devices')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', organisation)
    .addColumn('room_id', 'integer', (c) => c.notNull().references('rooms.id').onDelete('restrict'))
    .addColumn('type_id', 'integer', (c) => c.notNull().references('device_types.id'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('serial_number', 'varchar(100)')
    .addColumn('controller_id', 'varchar(64)')
    .addColumn('template_id', 'integer')
    .addColumn('shift_start', 'varchar(5)')
    .addColumn('wash_interval_hours', 'integer')
    .addColumn('service_interval_days', 'integer')
    .addColumn('next_service_date', 'varchar(10)')
    .addColumn('notes', 'text')
    .addColumn('credential_hash', 'varchar(64)')
    .addColumn('credential_issued_at', time)
    .addColumn('last_online_at', time)
    .addColumn('work_start_date', 'varchar(10)')
    .addColumn('work_start_time', 'varchar(8)')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  // Controllers identify themselves to the gateway by this id, so it is unique across organisations.
  await db.schema
    .createIndex('devices_controller_id_unique')
    .on('devices')
    .column('controller_id')
    .unique()
    .execute();
  await db.schema
    .createIndex('devices_organisation_name_idx')
    .on('devices')
    .columns(['organisation_id', 'name'])
    .execute();
  await db.schema.createIndex('devices_room_idx').on('devices').column('room_id').execute();
  await db.schema.createIndex('devices_type_idx').on('devices').column('type_id').execute();

  await db.schema
    .createTable('device_groups')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', organisation)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_groups_organisation_idx')
    .on('device_groups')
    .column('organisation_id')
    .execute();

  await db.schema
    .createTable('device_group_devices')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('device_groups.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('device_group_devices_pk', ['group_id', 'device_id'])
    .execute();
  await db.schema
    .createIndex('device_group_devices_device_idx')
    .on('device_group_devices')
    .column('device_id')
    .execute();

  await db.schema
    .createTable('device_service_entries')
    .addColumn('id', 'integer', id)
    .addColumn('organisation_id', 'integer', organisation)
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('performed_by', 'varchar(255)', (c) => c.notNull())
    .addColumn('part', 'varchar(255)')
    .addColumn('note', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_service_entries_device_idx')
    .on('device_service_entries')
    .columns(['device_id', 'date'])
    .execute();
}

/** The reference list as it was seeded; later changes come in new migrations. */
const DEVICE_TYPES = [
  {
    slug: 'combi_oven',
    ru: 'Пароконвектомат',
    en: 'Combi oven',
    telemetry: ['current', 'temperature', 'core_temperature', 'humidity', 'door', 'state', 'wash'],
    wash: 24,
    programs: 1000,
  },
  {
    slug: 'convection_oven',
    ru: 'Конвекционная печь',
    en: 'Convection oven',
    telemetry: ['current', 'temperature', 'core_temperature', 'door', 'state'],
    wash: null,
    programs: 100,
  },
  {
    slug: 'fryer',
    ru: 'Фритюрница',
    en: 'Fryer',
    telemetry: ['current', 'temperature', 'state'],
    wash: null,
    programs: 100,
  },
  {
    slug: 'dishwasher',
    ru: 'Посудомоечная машина',
    en: 'Dishwasher',
    telemetry: ['current', 'temperature', 'door', 'state', 'wash'],
    wash: 24,
    programs: null,
  },
  {
    slug: 'refrigerator',
    ru: 'Холодильный шкаф',
    en: 'Refrigerator',
    telemetry: ['current', 'temperature', 'door', 'state'],
    wash: null,
    programs: null,
  },
  {
    slug: 'freezer',
    ru: 'Морозильный шкаф',
    en: 'Freezer',
    telemetry: ['current', 'temperature', 'door', 'state'],
    wash: null,
    programs: null,
  },
  {
    slug: 'blast_chiller',
    ru: 'Шкаф шоковой заморозки',
    en: 'Blast chiller',
    telemetry: ['current', 'temperature', 'core_temperature', 'door', 'state'],
    wash: null,
    programs: 100,
  },
  {
    slug: 'induction_hob',
    ru: 'Индукционная плита',
    en: 'Induction hob',
    telemetry: ['current', 'state'],
    wash: null,
    programs: null,
  },
  {
    slug: 'other',
    ru: 'Другое оборудование',
    en: 'Other equipment',
    telemetry: ['current', 'state'],
    wash: null,
    programs: null,
  },
];
