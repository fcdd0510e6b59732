import type { Generated } from 'kysely';

/**
 * The database as the application sees it. Times are ISO 8601 strings in UTC (`text` in SQLite,
 * `timestamptz` in PostgreSQL, read back as ISO strings); flags are integers 0/1 in both dialects
 * so one query works on both.
 */
export interface Database {
  organisations: OrganisationsTable;
  users: UsersTable;
  acl_modules: AclModulesTable;
  acl_roles: AclRolesTable;
  acl_role_modules: AclRoleModulesTable;
  sessions: SessionsTable;
  personal_access_tokens: PersonalAccessTokensTable;
  user_tokens: UserTokensTable;
  mail_outbox: MailOutboxTable;
  rate_limits: RateLimitsTable;
  addresses: AddressesTable;
  rooms: RoomsTable;
  device_types: DeviceTypesTable;
  devices: DevicesTable;
  device_groups: DeviceGroupsTable;
  device_group_devices: DeviceGroupDevicesTable;
  device_service_entries: DeviceServiceEntriesTable;
  telemetry_samples: TelemetrySamplesTable;
  telemetry_minute: TelemetryRollupTable;
  telemetry_hour: TelemetryHourTable;
  device_live: DeviceLiveTable;
  wash_cycles: WashCyclesTable;
  notifications: NotificationsTable;
  telemetry_day: TelemetryDayTable;
  device_event_templates: DeviceEventTemplatesTable;
  device_events: DeviceEventsTable;
  device_rule_state: DeviceRuleStateTable;
  recipe_images: RecipeImagesTable;
  recipes: RecipesTable;
  recipe_sets: RecipeSetsTable;
  recipe_set_recipes: RecipeSetRecipesTable;
  device_recipe_binds: DeviceRecipeBindsTable;
  user_settings: UserSettingsTable;
  complaint_photos: ComplaintPhotosTable;
  complaints: ComplaintsTable;
  complaint_events: ComplaintEventsTable;
  support_messages: SupportMessagesTable;
  integrations: IntegrationsTable;
  telegram_outbox: TelegramOutboxTable;
  job_leases: JobLeasesTable;
  billing_accounts: BillingAccountsTable;
  ledger_entries: LedgerEntriesTable;
  organisation_details: OrganisationDetailsTable;
  payments: PaymentsTable;
  document_counters: DocumentCountersTable;
  billing_documents: BillingDocumentsTable;
  device_ingest_days: DeviceIngestDaysTable;
}

export interface OrganisationsTable {
  id: Generated<number>;
  name: string;
  /** Moved by triggers on every change of the organisation's addresses, rooms and devices (migration 0003). */
  fleet_version: Generated<number>;
  /**
   * Moved the same way by changes of what other lists are built from (migration 0016): device
   * groups and their members; device events; notifications; recipes and recipe sets; complaints;
   * users and access roles with their modules.
   */
  groups_version: Generated<number>;
  events_version: Generated<number>;
  notifications_version: Generated<number>;
  recipes_version: Generated<number>;
  complaints_version: Generated<number>;
  people_version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  /** Always stored lower-case; unique across all organisations (it is the login). */
  email: string;
  /** argon2id PHC string; null until an invited user sets a password. */
  password_hash: string | null;
  role: 'regular' | 'admin';
  acl_role_id: number | null;
  email_verified_at: string | null;
  locale: 'ru' | 'en';
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AclModulesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  is_client_system: number;
}

export interface AclRolesTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  is_client_system: number;
  /** The role made with the organisation that holds every module; listed with `withAdminRole`. */
  is_admin_role: number;
  created_at: string;
  updated_at: string;
}

export interface AclRoleModulesTable {
  acl_role_id: number;
  acl_module_id: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a leaked table holds no usable session. */
  id: string;
  user_id: number | null;
  csrf_token: string;
  remember: number;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  last_activity_at: string;
  expires_at: string;
}

export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** SHA-256 of the secret part of `<id>|<secret>`. */
  token_hash: string;
  /** A one-time login link (`user:login-link`): consumed on first use. */
  single_use: number;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export type UserTokenPurpose = 'password_reset' | 'email_verification' | 'invitation';

export interface UserTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: UserTokenPurpose;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'held';

export interface MailOutboxTable {
  id: Generated<number>;
  organisation_id: number | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: MailStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string;
  locked_until: string | null;
  sent_at: string | null;
  created_at: string;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  /** Epoch milliseconds when the window ends. */
  reset_at: number;
}

export interface AddressesTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  full_address: string;
  city: string;
  /** IANA zone; every "today" and work-time rule of the devices here uses it. */
  time_zone: string;
  /** JSON of `WorkTime` (contracts): weekday → {open, close} in local time, or null when closed. */
  work_time: string;
  latitude: number | null;
  longitude: number | null;
  /** Generated file name under UPLOADS_DIR, its sniffed content type, and when it changed. */
  image_file: string | null;
  image_type: string | null;
  image_updated_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface RoomsTable {
  id: Generated<number>;
  organisation_id: number;
  address_id: number;
  name: string;
  floor: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** Seeded reference list, shared by every organisation. */
export interface DeviceTypesTable {
  id: Generated<number>;
  slug: string;
  name_ru: string;
  name_en: string;
  /** JSON array of telemetry kinds the type reports. */
  telemetry: string;
  wash_interval_hours: number | null;
  program_capacity: number | null;
  position: number;
  /** Current (A) above which a device of this type counts as working (migration 0004). */
  idle_current_a: Generated<number>;
}

export interface DevicesTable {
  id: Generated<number>;
  organisation_id: number;
  room_id: number;
  type_id: number;
  name: string;
  serial_number: string | null;
  /** Unique across organisations: the gateway identifies a controller by it. */
  controller_id: string | null;
  template_id: number | null;
  /** Local `HH:MM` at the address. */
  shift_start: string | null;
  wash_interval_hours: number | null;
  service_interval_days: number | null;
  next_service_date: string | null;
  notes: string | null;
  /** SHA-256 (hex) of the gateway credential; the secret itself is never stored. */
  credential_hash: string | null;
  credential_issued_at: string | null;
  /** The recipe set the device holds (migration 0009). */
  recipe_set_id: Generated<number | null>;
  created_at: string;
  updated_at: string;
}

export interface DeviceGroupsTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeviceGroupDevicesTable {
  group_id: number;
  device_id: number;
}

export interface DeviceServiceEntriesTable {
  id: Generated<number>;
  organisation_id: number;
  device_id: number;
  date: string;
  kind: string;
  performed_by: string;
  part: string | null;
  note: string | null;
  created_by_user_id: number | null;
  created_at: string;
}

/** One stored sample (migration 0004): `ts` in epoch ms, `state` the index in `DEVICE_STATES`. */
export interface TelemetrySamplesTable {
  device_id: number;
  ts: number;
  current: number;
  temperature: number | null;
  door_open: number | null;
  state: number;
  program: string | null;
  error_code: string | null;
  core_temperature: number | null;
  humidity: number | null;
}

/** A minute (or hour) of one device's samples, `bucket` its first epoch ms. */
export interface TelemetryRollupTable {
  device_id: number;
  bucket: number;
  samples: number;
  current_sum: number;
  current_min: number;
  current_max: number;
  temperature_samples: number;
  temperature_sum: number;
  temperature_min: number | null;
  temperature_max: number | null;
  /** Samples counted as working (state heating/cooking, or current above the type's idle level). */
  working: number;
  washing: number;
  fault: number;
  door_open: number;
}

export interface TelemetryHourTable extends TelemetryRollupTable {
  /** Minutes of the hour with at least one working sample. */
  working_minutes: number;
  /** The first and last working sample of the hour (epoch ms), null when it did not work (migration 0005). */
  first_working_ts: number | null;
  last_working_ts: number | null;
}

/** The latest state of a device, written by the gateway. */
export interface DeviceLiveTable {
  device_id: number;
  last_ts: number | null;
  /** `last_online.last_utc` (docs/contract.md, "Entities"): when the latest sample was received. */
  last_online_at: string | null;
  current: number | null;
  temperature: number | null;
  door_open: number | null;
  state: number | null;
  program: string | null;
  error_code: string | null;
  core_temperature: number | null;
  humidity: number | null;
  /** `work_start` (docs/contract.md, "Entities"): local date (`YYYY-MM-DD`) and time (`HH:MM`) at the device's address. */
  work_start_date: string | null;
  work_start_time: string | null;
  wash_started_ts: number | null;
  /** The last `status` message, as JSON. */
  status: string | null;
  status_at: string | null;
}

export type WashOutcome = 'completed' | 'aborted';

export interface WashCyclesTable {
  device_id: number;
  started_ts: number;
  ended_ts: number;
  outcome: WashOutcome;
}

export type NotificationSeverity = 'info' | 'warning' | 'critical';

/** What a user is told (migration 0005); raised by device events (docs/events.md). */
export interface NotificationsTable {
  id: Generated<number>;
  organisation_id: number;
  user_id: number;
  kind: string;
  severity: NotificationSeverity;
  title: string;
  body: string;
  device_id: number | null;
  event_id: number | null;
  created_at: string;
  read_at: string | null;
  /** When the e-mail and Telegram channels were given it (migration 0010); null until then. */
  dispatched_at: string | null;
  /** The complaint it is about (migrations 0010, 0015). */
  complaint_id: number | null;
  /**
   * When what it tells of happened (migration 0014): the device event's start, else `created_at`.
   * Every source writes it; null only in rows written without it, read as `created_at`.
   */
  occurred_at: string | null;
}

/** One device's local day (migration 0006): what the worktime and temperature reports read. */
export interface TelemetryDayTable {
  device_id: number;
  /** `YYYY-MM-DD` in the address's zone when the samples came. */
  date: string;
  samples: number;
  working_minutes: number;
  first_working_ts: number | null;
  last_working_ts: number | null;
  temperature_samples: number;
  temperature_sum: number;
  temperature_min: number | null;
  temperature_max: number | null;
}

/** A current template (migration 0008): `norms` and `rules` are JSON. */
export interface DeviceEventTemplatesTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  description: string | null;
  device_type_id: number;
  device_id: number | null;
  norms: string;
  rules: string;
  created_at: string;
  updated_at: string;
}

/** A device event (migration 0008): `started_ts`/`ended_ts` epoch ms; open while `ended_ts` is null. */
export interface DeviceEventsTable {
  id: Generated<number>;
  organisation_id: number;
  device_id: number;
  template_id: number | null;
  rule_key: string | null;
  condition_key: string | null;
  kind: string;
  severity: NotificationSeverity;
  title: string | null;
  description: string | null;
  details: string | null;
  value: number | null;
  started_ts: number;
  ended_ts: number | null;
  acknowledged_at: string | null;
  acknowledged_by: number | null;
  ack_comment: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** Since when each of a device's rule conditions has held (JSON: condition key → epoch ms). */
export interface DeviceRuleStateTable {
  device_id: number;
  template_id: number | null;
  conditions: string;
  updated_ts: number;
}

/** An uploaded recipe image (migration 0009): `file` is the server's name for it. */
export interface RecipeImagesTable {
  file: string;
  organisation_id: number;
  type: string;
  created_at: string;
}

/** A recipe (migration 0009): `steps` JSON; `crc`/`size` those of its program file at `version`. */
export interface RecipesTable {
  id: Generated<number>;
  organisation_id: number;
  device_type_id: number;
  name: string;
  category: string | null;
  description: string | null;
  image: string | null;
  steps: string;
  version: number;
  crc: string;
  size: number;
  duration_seconds: number;
  created_at: string;
  updated_at: string;
}

export interface RecipeSetsTable {
  id: Generated<number>;
  organisation_id: number;
  device_type_id: number;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface RecipeSetRecipesTable {
  set_id: number;
  recipe_id: number;
  position: number;
}

export type UploadStateColumn = 'queued' | 'sending' | 'installed' | 'failed' | 'removing';

/** A recipe on a device and its delivery (migration 0009). */
export interface DeviceRecipeBindsTable {
  id: Generated<number>;
  organisation_id: number;
  device_id: number;
  recipe_id: number;
  set_id: number | null;
  version: number;
  crc: string;
  size: number;
  state: UploadStateColumn;
  error: string | null;
  reported_crc: string | null;
  attempts: Generated<number>;
  sent_ts: number | null;
  created_at: string;
  updated_at: string;
}

/** A user's notification settings (migration 0010); JSON arrays in `kinds` and `severities`. */
export interface UserSettingsTable {
  user_id: number;
  organisation_id: number;
  web: number;
  email: number;
  telegram: number;
  kinds: string;
  severities: string;
  quiet_start: string | null;
  quiet_end: string | null;
  quiet_hours_critical: number;
  time_zone: string;
  updated_at: string;
}

/** An uploaded complaint photo (migrations 0010, 0015): `file` is the server's name for it. */
export interface ComplaintPhotosTable {
  file: string;
  organisation_id: number;
  type: string;
  created_at: string;
}

/** A complaint (migrations 0010, 0015); `photos` is a JSON array of `complaint_photos.file`. */
export interface ComplaintsTable {
  id: Generated<number>;
  organisation_id: number;
  title: string;
  text: string;
  priority: 'low' | 'normal' | 'high' | 'urgent';
  status: 'new' | 'in_progress' | 'resolved' | 'closed';
  device_id: number | null;
  address_id: number | null;
  author_id: number | null;
  assignee_id: number | null;
  photos: string;
  comments_count: Generated<number>;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
}

/** One entry of a complaint's timeline (migrations 0010, 0015). */
export interface ComplaintEventsTable {
  id: Generated<number>;
  organisation_id: number;
  complaint_id: number;
  kind: 'created' | 'comment' | 'status' | 'assignee' | 'priority';
  author_id: number | null;
  text: string | null;
  from_status: ComplaintsTable['status'] | null;
  to_status: ComplaintsTable['status'] | null;
  assignee_id: number | null;
  priority: ComplaintsTable['priority'] | null;
  photos: string;
  created_at: string;
}

/** The organisation's conversation with support (migration 0010). */
export interface SupportMessagesTable {
  id: Generated<number>;
  organisation_id: number;
  from_support: number;
  author_id: number | null;
  author_name: string;
  text: string;
  read_at: string | null;
  created_at: string;
}

export type IntegrationStatusColumn = 'pending' | 'active' | 'expired' | 'blocked';

/** A Telegram chat bound (or waiting to be bound) to a user (migration 0010). */
export interface IntegrationsTable {
  id: Generated<number>;
  organisation_id: number;
  kind: 'telegram';
  name: string;
  user_id: number;
  status: IntegrationStatusColumn;
  link_token_hash: string | null;
  link_expires_at: string | null;
  chat_id: string | null;
  chat_title: string | null;
  chat_username: string | null;
  bound_at: string | null;
  blocked_at: string | null;
  last_delivery_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export type TelegramOutboxStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';

/** A message for a bound chat, sent and retried by the Telegram sender (migration 0010). */
export interface TelegramOutboxTable {
  id: Generated<number>;
  organisation_id: number;
  integration_id: number;
  chat_id: string;
  text: string;
  notification_id: number | null;
  status: TelegramOutboxStatus;
  attempts: Generated<number>;
  next_attempt_at: string;
  locked_until: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
}

/** Who holds a once-per-deployment job, until when (migration 0010). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** Migration 0011: billing (docs/billing.md). Amounts are kopecks. */
export interface BillingAccountsTable {
  organisation_id: number;
  /** The ledger's running sum, moved in the same transaction as each entry. */
  balance: Generated<number>;
  /** Kopecks per smart device per billing day; null: the deployment's default (BILLING_DAILY_RATE_KOPECKS). */
  daily_rate: number | null;
  /** The first billing day (YYYY-MM-DD, Moscow) charges are posted for. */
  charges_from: string;
  /** The last billing day the daily job has handled (charged, or nothing to charge). */
  charged_through: string | null;
  updated_at: string;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  organisation_id: number;
  kind: 'payment' | 'charge' | 'correction' | 'refund';
  amount: number;
  balance_after: number;
  description: string;
  /** Unique per organisation: `charge:<day>`, `payment:<id>`, `invoice:<number>`. */
  reference: string | null;
  quantity: number | null;
  unit_price: number | null;
  /** 1: a credit nobody paid (the sandbox provider's, the demo's), for good (migration 0012). */
  test_money: Generated<number>;
  created_by: number | null;
  created_at: string;
}

export interface OrganisationDetailsTable {
  organisation_id: number;
  legal_name: string;
  inn: string;
  kpp: string | null;
  ogrn: string;
  legal_address: string;
  postal_address: string | null;
  bank_name: string;
  bik: string;
  correspondent_account: string;
  settlement_account: string;
  director: string;
  accountant: string | null;
  documents_email: string;
  updated_at: string;
}

export interface PaymentsTable {
  id: Generated<number>;
  organisation_id: number;
  provider: string;
  external_id: string | null;
  amount: number;
  status: 'pending' | 'succeeded' | 'failed';
  confirmation_url: string | null;
  created_by: number | null;
  created_at: string;
  completed_at: string | null;
}

export interface DocumentCountersTable {
  kind: 'invoice' | 'act';
  year: number;
  last_sequence: number;
}

export interface BillingDocumentsTable {
  id: Generated<number>;
  organisation_id: number;
  kind: 'invoice' | 'act';
  year: number;
  sequence: number;
  /** YYYY-MM-DD, Moscow. */
  date: string;
  amount: number;
  vat: number;
  vat_percent: number;
  /** Acts: the month (YYYY-MM). */
  period: string | null;
  status: 'issued' | 'paid';
  paid_at: string | null;
  pdf: Buffer;
  created_by: number | null;
  created_at: string;
}

/** A device's traffic of one UTC day, as the gateways counted it for the device limits (migration 0013). */
export interface DeviceIngestDaysTable {
  device_id: number;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  organisation_id: number;
  /** Samples taken within the limits. */
  samples: number;
  /** Messages and connections refused by the limits. */
  refused: number;
  /** The last refusal (epoch ms) and its reason (`DEVICE_LIMIT_REASONS`). */
  last_refused_ts: number | null;
  last_reason: string | null;
  /** When the organisation was told that the device sends more than its limit (once a day). */
  notified_at: string | null;
}
