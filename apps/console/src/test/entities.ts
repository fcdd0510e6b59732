import type {
  AclRole,
  Address,
  Complaint,
  ComplaintEvent,
  DashboardDevice,
  Device,
  DeviceEvent,
  DeviceEventTemplate,
  DeviceType,
  Integration,
  Notification,
  Recipe,
  RecipeBind,
  RecipeSet,
  RecipeStep,
  Room,
  SupportMessage,
  User,
} from '@kontrol/contracts';
import { dashboardCounters, toStatDevice } from '@kontrol/contracts';

/**
 * Entities as the API answers them, for the console's tests: one of each with plain defaults (a
 * combi oven in the hot kitchen of a Moscow address), changed by `overrides`.
 */
const STAMP = '2026-11-01T09:00:00.000Z';

export function buildDeviceType(overrides: Partial<DeviceType> = {}): DeviceType {
  return {
    id: 1,
    slug: 'combi_oven',
    name: 'Пароконвектомат',
    telemetry: ['current', 'wash'],
    wash_interval_hours: 24,
    program_capacity: 100,
    ...overrides,
  };
}

export function buildAddress(overrides: Partial<Address> = {}): Address {
  return {
    id: 1,
    name: 'Тверская, 1',
    full_address: 'Москва, Тверская ул., 1',
    city: 'Москва',
    time_zone: 'Europe/Moscow',
    work_time: {
      mon: null,
      tue: null,
      wed: null,
      thu: null,
      fri: null,
      sat: null,
      sun: null,
    },
    latitude: null,
    longitude: null,
    image_url: null,
    rooms_count: 1,
    devices_count: 0,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function buildRoom(overrides: Partial<Room> = {}): Room {
  return {
    id: 1,
    name: 'Горячий цех',
    address_id: 1,
    floor: null,
    description: null,
    devices_count: 0,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

export function buildDevice(overrides: Partial<Device> = {}): Device {
  const device: Device = {
    id: 1,
    name: 'Печь 1',
    type_id: 1,
    room_id: 1,
    address_id: 1,
    serial_number: null,
    controller_id: null,
    template_id: null,
    is_smart: false,
    shift_start: null,
    wash_interval_hours: null,
    service_interval_days: null,
    next_service_date: null,
    notes: null,
    last_online: { last_utc: null },
    work_start: { date: null, start: null },
    has_credential: false,
    credential_issued_at: null,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
  return { ...device, is_smart: device.controller_id !== null || device.template_id !== null };
}

/** A current template of the combi oven type: bands for idle and heating, one rule, no devices. */
export function buildDeviceEventTemplate(overrides: Partial<DeviceEventTemplate> = {}): DeviceEventTemplate {
  return {
    id: 1,
    name: 'Пароконвектомат 10 GN',
    description: null,
    device_type_id: 1,
    device_id: null,
    norms: { idle: { min: 0.5, max: 2 }, heating: { min: 15, max: 45 }, cooking: null, washing: null },
    rules: [{ key: 'r1', kind: 'current_above', state: 'heating', severity: 'warning', duration_minutes: 5 }],
    device_ids: [],
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

/** An open, unacknowledged warning raised by a template's rule on device 1. */
export function buildDeviceEvent(overrides: Partial<DeviceEvent> = {}): DeviceEvent {
  return {
    id: 1,
    device_id: 1,
    device_name: 'Печь 1',
    template_id: 1,
    rule_key: 'r1',
    kind: 'current_above',
    severity: 'warning',
    title: 'Ток выше нормы нагрева',
    description: null,
    started_at: STAMP,
    ended_at: null,
    value: 52.5,
    acknowledged: null,
    created_by: null,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

/** A combi-oven recipe of two timed steps (convection, then combination), in no set. */
export function buildRecipe(overrides: Partial<Recipe> = {}): Recipe {
  const steps: RecipeStep[] = overrides.steps ?? [
    {
      mode: 'convection',
      temperature: 180,
      humidity: null,
      fan_speed: 3,
      duration_seconds: 600,
      core_temperature: null,
      prompt: null,
    },
    {
      mode: 'combination',
      temperature: 160,
      humidity: 60,
      fan_speed: 2,
      duration_seconds: 900,
      core_temperature: null,
      prompt: 'Переверните',
    },
  ];
  return {
    id: 1,
    name: 'Курица гриль',
    device_type_id: 1,
    category: 'Птица',
    description: null,
    image: null,
    image_url: null,
    steps,
    version: 1,
    crc: '0a1b2c3d',
    duration_seconds: steps.reduce((total, step) => total + (step.duration_seconds ?? 0), 0),
    set_ids: [],
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

/** A combi-oven set holding no recipe. */
export function buildRecipeSet(overrides: Partial<RecipeSet> = {}): RecipeSet {
  return {
    id: 1,
    name: 'Обеды',
    description: null,
    device_type_id: 1,
    recipe_ids: [],
    crc: '1f2e3d4c',
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

/** Recipe 1 of set 1 on device 1, installed at version 1. */
export function buildRecipeBind(overrides: Partial<RecipeBind> = {}): RecipeBind {
  return {
    id: 1,
    device_id: 1,
    recipe_id: 1,
    set_id: 1,
    version: 1,
    crc: '0a1b2c3d',
    state: 'installed',
    error: null,
    reported_crc: '0a1b2c3d',
    attempts: 1,
    outdated: false,
    updated_at: STAMP,
    ...overrides,
  };
}

/** A verified regular user of the organisation holding access role 1 («Повара»: recipes). */
export function buildUser(overrides: Partial<User> = {}): User {
  return {
    id: 2,
    name: 'Борис Су-шеф',
    email: 'boris@example.test',
    role: 'regular',
    status: 'verified',
    acl_role_id: 1,
    acl_role: {
      id: 1,
      name: 'Повара',
      modules: [{ id: 5, slug: 'recipes', name: 'recipes', is_client_system: true }],
    },
    locale: 'ru',
    disabled: false,
    invitation_pending: false,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

/** Access role 1 of organisation 1, «Повара», holding the recipes module. */
export function buildAclRole(overrides: Partial<AclRole> = {}): AclRole {
  return {
    id: 1,
    name: 'Повара',
    account_id: 1,
    is_admin_role: false,
    modules: [{ id: 5, slug: 'recipes', name: 'recipes', is_client_system: true }],
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

/** An active Telegram integration of user 1 («Анна Повар»), bound to her private chat. */
export function buildIntegration(overrides: Partial<Integration> = {}): Integration {
  return {
    id: 1,
    kind: 'telegram',
    name: 'Телефон Анны',
    status: 'active',
    user: { id: 1, name: 'Анна Повар' },
    chat: { title: 'Анна Повар', username: 'anna_cook' },
    link_expires_at: null,
    bound_at: STAMP,
    last_delivery_at: null,
    last_error: null,
    created_at: STAMP,
    updated_at: STAMP,
    ...overrides,
  };
}

/** An unread warning of user 1 about device 1. */
export function buildNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 1,
    kind: 'no_data',
    severity: 'warning',
    title: 'Печь 1 не на связи',
    body: 'Нет данных 15 минут',
    device_id: 1,
    event_id: 1,
    alert_id: null,
    occurred_at: STAMP,
    created_at: STAMP,
    read_at: null,
    ...overrides,
  };
}

/** A new complaint about device 1 (at address 1), filed by user 1, nobody assigned. */
export function buildComplaint(overrides: Partial<Complaint> = {}): Complaint {
  return {
    id: 1,
    title: 'Печь не греет',
    text: 'Температура не поднимается выше 60 °C.',
    priority: 'normal',
    status: 'new',
    device_id: 1,
    address_id: 1,
    author: { id: 1, name: 'Анна Повар' },
    assignee: null,
    photos: [],
    comments_count: 0,
    created_at: STAMP,
    updated_at: STAMP,
    resolved_at: null,
    ...overrides,
  };
}

/** The "filed" entry of complaint 1's timeline. */
export function buildComplaintEvent(overrides: Partial<ComplaintEvent> = {}): ComplaintEvent {
  return {
    id: 1,
    alert_id: 1,
    kind: 'created',
    author: { id: 1, name: 'Анна Повар' },
    text: null,
    from_status: null,
    to_status: null,
    assignee: null,
    priority: null,
    photos: [],
    created_at: STAMP,
    ...overrides,
  };
}

/** A message of user 1 to support, not read by support yet. */
export function buildSupportMessage(overrides: Partial<SupportMessage> = {}): SupportMessage {
  return {
    id: 1,
    text: 'Здравствуйте! Как подключить Telegram?',
    from: 'organisation',
    author: { id: 1, name: 'Анна Повар' },
    created_at: STAMP,
    read_at: null,
    ...overrides,
  };
}

export const MINUTE = 60_000;
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE).toISOString();

/** A device as `GET /api/devices/stat` lists it: a smart combi oven online a minute ago, no problem. */
export function buildDashboardDevice(overrides: Partial<DashboardDevice> = {}): DashboardDevice {
  return {
    id: 1,
    name: 'Печь 1',
    type_id: 1,
    address_id: 1,
    room_id: 1,
    is_smart: true,
    template_id: 1,
    shift_start: null,
    time_zone: 'Europe/Moscow',
    last_online: { last_utc: minutesAgo(1) },
    work_start: { date: null, start: null },
    wash_interval_hours: null,
    last_wash_at: null,
    state: 'idle',
    current: 1.2,
    temperature: 30,
    open_events: 0,
    open_severity: null,
    problem_since: null,
    ...overrides,
  };
}

/** The device as the devices list (reference data) gives a dashboard device: its name and place. */
export function listedDevice(device: DashboardDevice): Device {
  return buildDevice({
    id: device.id,
    name: device.name,
    type_id: device.type_id,
    address_id: device.address_id,
    room_id: device.room_id,
  });
}

/**
 * The statistics answer of these devices as the server sends it (no names or places, no empty
 * fields), counted by the shared rules at the server's now.
 */
export function statAnswer(devices: DashboardDevice[], now = Date.now()) {
  return {
    data: {
      devices: devices.map(toStatDevice),
      issues_count: devices.filter((device) => device.open_events > 0).length,
      bad_devices_for_templates: devices.filter((device) => device.is_smart && device.template_id === null)
        .length,
      counters: dashboardCounters(devices, now),
      now: new Date(now).toISOString(),
    },
  };
}
