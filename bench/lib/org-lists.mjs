// Fills an organisation seeded by test-support/server.mjs (seedFleetAndSignIn: fixtures and a fleet)
// with what its other lists hold in real use, for the API list benchmark (bench/devices-api.mjs):
//   - device groups (of 10 to 500 devices), recipes, complaints and users, created through the API
//     as the console does (so every rule and side effect applies: complaints notify, users get
//     their invitation);
//   - device events: a day of the fleet's life (bench/lib/fleet-life.mjs: open faults and "no
//     data" events), then closed ones going back over the months before, some acknowledged;
//   - access roles with a few modules each, the users spread over them;
//   - the admin's notifications, written straight into the SQLite database (already dispatched,
//     older ones read), as the rules would have left them over a few months.
import Database from 'better-sqlite3';
import { liven } from './fleet-life.mjs';

/**
 * @typedef {object} ListAmounts
 * @property {number} groups         device groups, of 10 to 500 devices
 * @property {number} recipes
 * @property {number} complaints
 * @property {number} users          users added beside the fixtures
 * @property {number} roles          access roles added beside the fixtures
 * @property {number} events         device events in all (a day of life, then closed ones before it)
 * @property {number} notifications  the admin's
 */

/**
 * JSON requests with the admin's session (cookie and CSRF token), a few at a time.
 * @param {string} baseURL @param {{ cookieHeader: string, xsrf: string }} admin
 */
function client(baseURL, admin) {
  const headers = {
    cookie: admin.cookieHeader,
    'x-xsrf-token': admin.xsrf,
    accept: 'application/json',
    'content-type': 'application/json',
  };
  return {
    /** @param {string} path */
    async get(path) {
      const response = await fetch(`${baseURL}${path}`, { headers });
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
      return response.json();
    },
    /** @param {string} path @param {unknown} body */
    async post(path, body) {
      const response = await fetch(`${baseURL}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      if (!response.ok)
        throw new Error(`POST ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
      return response.json();
    },
  };
}

/**
 * Runs `make(i)` for i in [0, count), `parallel` at a time.
 * @param {number} count @param {(i: number) => Promise<unknown>} make @param {number} [parallel]
 */
async function times(count, make, parallel = 4) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) {
        const i = next;
        next += 1;
        await make(i);
      }
    }),
  );
}

const COMPLAINTS = [
  'Не греет до заданной температуры',
  'Течёт вода из-под двери',
  'Ошибка на дисплее после мойки',
  'Сильный шум вентилятора',
  'Не включается с утра',
  'Дверь плохо закрывается',
];
const PRIORITIES = ['low', 'normal', 'normal', 'high', 'urgent'];
const RECIPES = ['Курица гриль', 'Бриошь', 'Лосось на пару', 'Овощи конфи', 'Круассан', 'Ростбиф'];
const DAY = 86_400_000;
/** Closed events of the months before: kinds the rules open (docs/events.md), with their severity. */
const EVENT_KINDS = [
  ['no_data', 'warning'],
  ['current_above', 'warning'],
  ['error_code', 'critical'],
  ['door_open_while_heating', 'info'],
];
const NOTIFICATION_KINDS = [
  ['no_data', 'warning', 'Нет данных больше 60 минут'],
  ['current_above', 'warning', 'Ток выше нормы: 42 А при норме до 30 А'],
  ['error_code', 'critical', 'Код ошибки E34'],
  ['door_open_while_heating', 'info', 'Дверь открыта во время нагрева'],
  ['request', 'info', 'Новая заявка'],
];

/**
 * Seeds the lists (see the header); returns how many of each there are now.
 * @param {{ baseURL: string, databaseUrl: string }} server
 * @param {{ cookieHeader: string, xsrf: string }} admin
 * @param {{ organisationId: number, admin: { email: string } }} logins
 * @param {ListAmounts} amounts
 */
export async function seedLists(server, admin, logins, amounts) {
  const api = client(server.baseURL, admin);
  const started = performance.now();
  /** @type {{ data: { id: number, room_id: number, address_id?: number }[] }} */
  const devices = await api.get('/api/devices/');
  /** @type {{ data: { id: number }[] }} */
  const addresses = await api.get('/api/addresses/');
  /** @type {{ data: { data: { id: number, slug: string }[] } }} */
  const types = await api.get('/api/devices/types/');
  const typeId = (/** @type {string} */ slug) => {
    const type = types.data.data.find((t) => t.slug === slug);
    if (!type) throw new Error(`no device type ${slug}`);
    return type.id;
  };
  const ovens = [typeId('combi_oven'), typeId('convection_oven')];
  const deviceIds = devices.data.map((d) => d.id);

  await times(amounts.groups, (i) => {
    // 10 to 500 devices, spread over the range: a line, an address, a region.
    const size = Math.min(10 + ((i * 97) % 491), deviceIds.length);
    return api.post('/api/devices/client/groups/add', {
      name: `Группа ${i + 1}`,
      description: 'Для нагрузочного теста',
      device_ids: Array.from({ length: size }, (_, k) => deviceIds[(i * 50 + k) % deviceIds.length]),
    });
  });
  await times(amounts.recipes, (i) =>
    api.post('/api/recipes/', {
      name: `${RECIPES[i % RECIPES.length]} №${i + 1}`,
      device_type_id: ovens[i % 2],
      category: i % 3 === 0 ? 'Выпечка' : 'Горячее',
      steps: [
        { mode: 'convection', temperature: 160 + (i % 5) * 10, fan_speed: 3, duration_seconds: 600 },
        { mode: 'convection', temperature: 200, fan_speed: 2, duration_seconds: 300 + (i % 7) * 60 },
      ],
    }),
  );
  await times(amounts.complaints, (i) =>
    api.post(
      '/api/alerts/',
      i % 4 === 3
        ? {
            title: `${COMPLAINTS[i % COMPLAINTS.length]} (кухня)`,
            address_id: addresses.data[i % addresses.data.length].id,
            priority: PRIORITIES[i % PRIORITIES.length],
          }
        : {
            title: COMPLAINTS[i % COMPLAINTS.length],
            text: 'Повар сообщил утром, нужна проверка сервисного инженера.',
            device_id: deviceIds[(i * 7) % deviceIds.length],
            priority: PRIORITIES[i % PRIORITIES.length],
          },
    ),
  );
  await times(amounts.users, (i) =>
    api.post('/api/users/add', {
      name: `Сотрудник ${i + 1}`,
      email: `staff-${i + 1}@bench.kontrol.test`,
      role: i % 20 === 0 ? 'admin' : 'regular',
    }),
  );

  const smart = await liven(server.databaseUrl, logins.organisationId);
  const db = new Database(server.databaseUrl.replace(/^sqlite:/, ''));
  try {
    db.pragma('busy_timeout = 10000');
    const user = db.prepare('select id from users where email = ?').get(logins.admin.email);
    const insert = db.prepare(
      `insert into notifications (organisation_id, user_id, kind, severity, title, body, device_id, event_id,
         created_at, read_at, dispatched_at)
       values (?, ?, ?, ?, ?, ?, ?, null, ?, ?, ?)`,
    );
    const now = Date.now();
    const modules = /** @type {{ id: number }[]} */ (
      db.prepare('select id from acl_modules where is_client_system = 1 order by id').all()
    ).map((m) => m.id);
    const addRole = db.prepare(
      `insert into acl_roles (organisation_id, name, is_admin_role, is_client_system, created_at, updated_at)
       values (?, ?, 0, 1, ?, ?) returning id`,
    );
    const addModule = db.prepare('insert into acl_role_modules (acl_role_id, acl_module_id) values (?, ?)');
    const iso = new Date(now).toISOString();
    db.transaction(() => {
      const roleIds = [];
      for (let i = 0; i < amounts.roles; i += 1) {
        const { id } = /** @type {{ id: number }} */ (
          addRole.get(logins.organisationId, `Роль ${i + 1}`, iso, iso)
        );
        roleIds.push(id);
        for (let k = 0; k < Math.min(4, modules.length); k += 1)
          addModule.run(id, modules[(i + k) % modules.length]);
      }
      // The added staff (not the fixtures' people) spread over the roles.
      const staff = /** @type {{ id: number }[]} */ (
        db
          .prepare("select id from users where organisation_id = ? and email like 'staff-%' order by id")
          .all(logins.organisationId)
      );
      const setRole = db.prepare('update users set acl_role_id = ? where id = ?');
      if (roleIds.length > 0)
        staff.forEach((member, i) => setRole.run(roleIds[i % roleIds.length], member.id));

      // Most complaints dealt with long ago: the older ones closed or resolved, some in progress.
      db.prepare(
        `update complaints set
           status = case id % 10 when 0 then 'new' when 1 then 'new' when 2 then 'in_progress'
                    when 3 then 'resolved' else 'closed' end,
           resolved_at = case when id % 10 >= 3 then updated_at end
         where organisation_id = ?`,
      ).run(logins.organisationId);

      // Closed events before the day of life: one every few minutes somewhere in the fleet.
      const existing = /** @type {{ n: number }} */ (
        db
          .prepare('select count(*) as n from device_events where organisation_id = ?')
          .get(logins.organisationId)
      ).n;
      const addEvent = db.prepare(
        `insert into device_events (organisation_id, device_id, template_id, rule_key, condition_key, kind, severity,
           details, value, started_ts, ended_ts, acknowledged_at, acknowledged_by, created_at, updated_at)
         values (?, ?, null, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const adminId = /** @type {{ id: number }} */ (user).id;
      const closed = Math.max(0, amounts.events - existing);
      for (let i = 0; i < closed; i += 1) {
        const [kind, severity] = EVENT_KINDS[i % EVENT_KINDS.length];
        const started = now - DAY - (closed - i) * 180_000;
        const at = new Date(started).toISOString();
        addEvent.run(
          logins.organisationId,
          deviceIds[(i * 13) % deviceIds.length],
          `bench-${kind}`,
          `0:bench-${kind}`,
          kind,
          severity,
          kind === 'error_code' ? JSON.stringify({ code: `E${10 + (i % 40)}` }) : null,
          kind === 'current_above' ? 31 + (i % 12) : null,
          started,
          started + 60_000 + (i % 50) * 60_000,
          i % 3 === 0 ? at : null,
          i % 3 === 0 ? adminId : null,
          at,
          at,
        );
      }

      for (let i = 0; i < amounts.notifications; i += 1) {
        const [kind, severity, body] = NOTIFICATION_KINDS[i % NOTIFICATION_KINDS.length];
        // One every ten minutes going back; all but the newest hundred read.
        const at = new Date(now - (amounts.notifications - i) * 600_000).toISOString();
        insert.run(
          logins.organisationId,
          /** @type {{ id: number }} */ (user).id,
          kind,
          severity,
          `Печь №${i % 1000}`,
          body,
          deviceIds[i % deviceIds.length],
          at,
          i < amounts.notifications - 100 ? at : null,
          at,
        );
      }
    })();
    const count = (/** @type {string} */ sql) =>
      /** @type {{ n: number }} */ (db.prepare(sql).get(logins.organisationId)).n;
    return {
      seconds: (performance.now() - started) / 1000,
      smart,
      devices: deviceIds.length,
      addresses: addresses.data.length,
      rooms: count('select count(*) as n from rooms where organisation_id = ?'),
      groups: count('select count(*) as n from device_groups where organisation_id = ?'),
      events: count('select count(*) as n from device_events where organisation_id = ?'),
      notifications: count('select count(*) as n from notifications where organisation_id = ?'),
      recipes: count('select count(*) as n from recipes where organisation_id = ?'),
      complaints: count('select count(*) as n from complaints where organisation_id = ?'),
      users: count('select count(*) as n from users where organisation_id = ?'),
      roles: count('select count(*) as n from acl_roles where organisation_id = ?'),
    };
  } finally {
    db.close();
  }
}
