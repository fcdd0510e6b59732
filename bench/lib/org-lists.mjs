// Fills an organisation seeded by test-support/server.mjs (seedFleetAndSignIn: fixtures and a fleet)
// with what its other lists hold in real use, for the API list benchmark (bench/devices-api.mjs):
//   - device groups, recipes, complaints and users, created through the API as the console does
//     (so every rule and side effect applies: complaints notify, users get their invitation);
//   - device events: a day of the fleet's life (bench/lib/fleet-life.mjs: open faults and "no
//     data" events);
//   - the admin's notifications, written straight into the SQLite database (already dispatched,
//     older ones read), as the rules would have left them over a few months.
import Database from 'better-sqlite3';
import { liven } from './fleet-life.mjs';

/**
 * @typedef {object} ListAmounts
 * @property {number} groups         device groups, 40 devices each
 * @property {number} recipes
 * @property {number} complaints
 * @property {number} users          users added beside the fixtures
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

  await times(amounts.groups, (i) =>
    api.post('/api/devices/client/groups/add', {
      name: `Группа ${i + 1}`,
      description: 'Для нагрузочного теста',
      device_ids: Array.from({ length: Math.min(40, deviceIds.length) }, (_, k) => {
        return deviceIds[(i * 40 + k) % deviceIds.length];
      }),
    }),
  );
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

  const smart = liven(server.databaseUrl, logins.organisationId);
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
    db.transaction(() => {
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
    };
  } finally {
    db.close();
  }
}
