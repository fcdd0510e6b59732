import { zoneOffsetMs } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { buildOrganisation } from './test/builders.js';
import { TestClient } from './test/http-client.js';
import { useTestApp } from './test/test-app.js';

const t = useTestApp();

/** Runs the operator tool against the test database and captures what it prints. */
async function kontrol(...argv: string[]) {
  return kontrolWith({ APP_URL: 'http://kontrol.test' }, ...argv);
}

/** The same with other settings (APP_URL given or not). */
async function kontrolWith(env: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    env: { DATABASE_URL: t.database.url, LOG_LEVEL: 'silent', ...env },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run kontrol', () => {
  it('prints help, and refuses an unknown command with exit code 2', async () => {
    const help = await kontrol('help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('user:login-link');
    const bad = await kontrol('frobnicate');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown command "frobnicate"');
    const badOption = await kontrol('migrate', '--nope');
    expect(badOption.code).toBe(2);
  });

  it('migrate is idempotent', async () => {
    const result = await kontrol('migrate');
    expect(result).toMatchObject({ code: 0, out: 'The database is up to date.' });
  });

  it('org:create makes an organisation whose admin can sign in with every module', async () => {
    const created = await kontrol(
      'org:create',
      '--name',
      'Пекарня №1',
      '--admin-email',
      'Boss@Bakery.test',
      '--password',
      'correct-horse',
    );
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/Organisation \d+ created; admin user \d+ <boss@bakery\.test>/);
    const client = new TestClient(t.app);
    await client.login('boss@bakery.test', 'correct-horse');
    const me = (await client.get('/api/users/auth')).json<{
      data: { isAdmin: boolean; organisation: { name: string }; acl_modules: unknown[] };
    }>().data;
    expect(me.isAdmin).toBe(true);
    expect(me.organisation.name).toBe('Пекарня №1');
    expect(me.acl_modules).toHaveLength(10);

    const duplicate = await kontrol('org:create', '--name', 'Again', '--admin-email', 'boss@bakery.test');
    expect(duplicate.code).toBe(1);
    expect(duplicate.err).toContain('email: The e-mail has already been taken.');
  });

  it('explains missing and invalid options', async () => {
    expect((await kontrol('org:create', '--admin-email', 'x@y.test')).err).toContain('--name is required');
    expect((await kontrol('org:create', '--name', 'N', '--admin-email', 'nope')).err).toContain(
      '"nope" is not an e-mail address',
    );
    expect(
      (await kontrol('org:create', '--name', 'N', '--admin-email', 'a@b.test', '--password', 'short')).err,
    ).toContain('--password must be 8 to 128 characters');
    expect((await kontrol('user:create', '--org', 'abc', '--email', 'a@b.test')).err).toContain(
      '--org must be a positive whole number',
    );
    expect((await kontrol('user:set-password', '--email', 'ghost@nowhere.test')).err).toContain(
      'no user has that e-mail',
    );
  });

  it('user:create adds a user to an organisation, generating a password when none is given', async () => {
    await kontrol(
      'org:create',
      '--name',
      'Cafe',
      '--admin-email',
      'owner@cafe.test',
      '--password',
      'owner-pass-1',
    );
    const org = await t.db
      .selectFrom('users')
      .select('organisation_id')
      .where('email', '=', 'owner@cafe.test')
      .executeTakeFirstOrThrow();
    const created = await kontrol(
      'user:create',
      '--org',
      String(org.organisation_id),
      '--email',
      'cook@cafe.test',
      '--name',
      'Cook',
    );
    expect(created.code).toBe(0);
    const password = /Password: (\S+)/.exec(created.out)?.[1];
    expect(password).toBeDefined();
    const client = new TestClient(t.app);
    await client.login('cook@cafe.test', password ?? '');
    const me = (await client.get('/api/users/auth')).json<{
      data: { role: string; acl_modules: unknown[] };
    }>().data;
    // No access role given: signed in, but no module (the console lands on no_access).
    expect(me).toMatchObject({ role: 'regular', acl_modules: [] });

    // An access role of another organisation is refused.
    const foreignRole = await t.db
      .selectFrom('acl_roles')
      .select('id')
      .where('organisation_id', '!=', org.organisation_id)
      .executeTakeFirstOrThrow();
    const refused = await kontrol(
      'user:create',
      '--org',
      String(org.organisation_id),
      '--email',
      'spy@cafe.test',
      '--acl-role',
      String(foreignRole.id),
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('acl_role_id');
  });

  it('user:set-password changes the password and ends the sessions', async () => {
    await kontrol(
      'org:create',
      '--name',
      'Bar',
      '--admin-email',
      'barman@bar.test',
      '--password',
      'first-pass-1',
    );
    const client = new TestClient(t.app);
    await client.login('barman@bar.test', 'first-pass-1');
    const changed = await kontrol(
      'user:set-password',
      '--email',
      'barman@bar.test',
      '--password',
      'second-pass-2',
    );
    expect(changed.code).toBe(0);
    expect((await client.get('/api/users/auth')).statusCode).toBe(401);
    await new TestClient(t.app).login('barman@bar.test', 'second-pass-2');
  });

  it('user:login-link prints a one-time link that signs in once', async () => {
    await kontrol(
      'org:create',
      '--name',
      'Canteen',
      '--admin-email',
      'chef@canteen.test',
      '--password',
      'chef-pass-1',
    );
    const result = await kontrol('user:login-link', '--email', 'chef@canteen.test');
    expect(result.code).toBe(0);
    const url = new URL(result.out.split('\n')[1] ?? '');
    expect(url.origin + url.pathname).toBe('http://kontrol.test/auth/login');
    const token = url.searchParams.get('auth_token') ?? '';
    const client = new TestClient(t.app);
    const me = await client.get('/api/users/auth', { authorization: `Bearer ${token}` });
    expect(me.json<{ data: { email: string } }>().data.email).toBe('chef@canteen.test');
    const reuse = await new TestClient(t.app).get('/api/users/auth', { authorization: `Bearer ${token}` });
    expect(reuse.statusCode).toBe(401);
  });

  it('user:login-link prints the link on APP_URL, path included, and refuses to guess one without it', async () => {
    await kontrol('org:create', '--name', 'Bistro', '--admin-email', 'chef@bistro.test');
    const base = 'https://support.kontrol.example/console';
    const result = await kontrolWith(
      { APP_URL: `${base}/` },
      'user:login-link',
      '--email',
      'chef@bistro.test',
    );
    expect(result.code).toBe(0);
    const url = new URL(result.out.split('\n')[1] ?? '');
    expect(url.origin + url.pathname).toBe(`${base}/auth/login`);
    expect([...url.searchParams.keys()]).toEqual(['auth_token']);
    const me = await new TestClient(t.app).get('/api/users/auth', {
      authorization: `Bearer ${url.searchParams.get('auth_token') ?? ''}`,
    });
    expect(me.json<{ data: { email: string } }>().data.email).toBe('chef@bistro.test');

    // Without APP_URL the link would point at this machine's HOST:PORT: no link, a clear error.
    const unset = await kontrolWith(
      { HOST: '0.0.0.0', PORT: '9000' },
      'user:login-link',
      '--email',
      'chef@bistro.test',
    );
    expect(unset.code).toBe(2);
    expect(unset.out).toBe('');
    expect(unset.err).toContain("APP_URL is not set: set it to the console's public address");
    const tokens = await t.db
      .selectFrom('personal_access_tokens')
      .select('id')
      .where('name', '=', 'login link')
      .execute();
    expect(tokens).toHaveLength(0);

    // An APP_URL that is not a plain http(s) address is refused before anything runs.
    for (const bad of [
      'javascript:alert(1)',
      'https://kontrol.example/?next=',
      'https://kontrol.example/#x',
      'https://user:pw@kontrol.example',
    ]) {
      const refused = await kontrolWith({ APP_URL: bad }, 'user:login-link', '--email', 'chef@bistro.test');
      expect(refused.code, bad).toBe(1);
      expect(refused.err, bad).toContain(
        'APP_URL: an http:// or https:// address without user, query or fragment',
      );
    }
  });

  it('holds names to the rule of the API: no links, e-mail addresses or control characters', async () => {
    const link = await kontrol(
      'org:create',
      '--name',
      'Ваш аккаунт заблокирован evil.com/x',
      '--admin-email',
      'a@names.test',
    );
    expect(link.code).toBe(2);
    expect(link.err).toContain('--name: A name cannot contain a link or a web address.');
    const email = await kontrol(
      'org:create',
      '--name',
      'Names',
      '--admin-email',
      'a@names.test',
      '--admin-name',
      'x@evil.test',
    );
    expect(email.code).toBe(2);
    expect(email.err).toContain('--admin-name: A name cannot contain an e-mail address.');
    const control = await kontrol('org:create', '--name', 'Names\u202e', '--admin-email', 'a@names.test');
    expect(control.code).toBe(2);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'a@names.test').execute()).toEqual(
      [],
    );

    // Without a name, a person is called by the part of the address before the @.
    const created = await kontrol(
      'org:create',
      '--name',
      'Names',
      '--admin-email',
      'anna.petrova@names.test',
    );
    expect(created.code).toBe(0);
    const admin = await t.db
      .selectFrom('users')
      .select('name')
      .where('email', '=', 'anna.petrova@names.test')
      .executeTakeFirstOrThrow();
    expect(admin.name).toBe('anna.petrova');
  });

  it('role:create makes an access role whose users hold exactly its modules', async () => {
    await kontrol(
      'org:create',
      '--name',
      'Diner',
      '--admin-email',
      'owner@diner.test',
      '--password',
      'owner-pass-1',
    );
    const org = await t.db
      .selectFrom('users')
      .select('organisation_id')
      .where('email', '=', 'owner@diner.test')
      .executeTakeFirstOrThrow();
    const created = await kontrol(
      'role:create',
      '--org',
      String(org.organisation_id),
      '--name',
      'Cooks',
      '--modules',
      'recipes, dashboard',
    );
    expect(created.code).toBe(0);
    const roleId = /Access role (\d+) created with recipes, dashboard\./.exec(created.out)?.[1];
    expect(roleId).toBeDefined();
    await kontrol(
      'user:create',
      '--org',
      String(org.organisation_id),
      '--email',
      'cook@diner.test',
      '--acl-role',
      roleId ?? '',
      '--password',
      'cook-pass-1',
    );
    const client = new TestClient(t.app);
    await client.login('cook@diner.test', 'cook-pass-1');
    const me = (await client.get('/api/users/auth')).json<{ data: { acl_modules: { slug: string }[] } }>()
      .data;
    expect(me.acl_modules.map((m) => m.slug)).toEqual(['dashboard', 'recipes']);

    const unknown = await kontrol(
      'role:create',
      '--org',
      String(org.organisation_id),
      '--name',
      'X',
      '--modules',
      'recipes,cooking',
    );
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.err).toContain('--modules: unknown cooking');
    expect((await kontrol('role:create', '--org', '999999', '--name', 'X')).err).toContain(
      'no organisation has that id',
    );
  });

  it('mail:show prints the latest e-mails to an address, newest first, with their links', async () => {
    const org = await buildOrganisation(t.db);
    const client = new TestClient(t.app);
    await client.login(org.admin.email, org.admin.password);
    const invited = await client.post('/api/users/add', { name: 'Ольга', email: 'olga@cli.test' });
    expect(invited.statusCode).toBe(201);
    await client.post(`/api/users/${invited.json<{ data: { id: number } }>().data.id}/invitation`, {});

    const shown = await kontrol('mail:show', '--email', 'OLGA@cli.test', '--last', '5');
    expect(shown.code).toBe(0);
    const links = [...shown.out.matchAll(/https?:\/\/\S+\/auth\/reset-password\?\S+/g)].map((m) => m[0]);
    expect(links).toHaveLength(2);
    expect(links[0]).not.toBe(links[1]);
    const ids = [...shown.out.matchAll(/^#(\d+) /gm)].map((m) => Number(m[1]));
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBeGreaterThan(ids[1] ?? Infinity); // newest first
    expect((await kontrol('mail:show', '--email', 'nobody@cli.test')).out).toBe(
      'No e-mail to nobody@cli.test.',
    );
    expect((await kontrol('mail:show', '--email', 'olga@cli.test', '--last', '51')).code).toBe(2);
    expect((await kontrol('mail:show')).code).toBe(2);
  });

  it('seed:demo creates the demo login once', async () => {
    const first = await kontrol('seed:demo');
    expect(first.out).toBe('Demo organisation created: demo@example.com / demo1234');
    expect((await kontrol('seed:demo')).out).toBe('The demo organisation already exists.');
    await new TestClient(t.app).login('demo@example.com', 'demo1234');
  });

  it('seed:fleet adds addresses, rooms and devices to one organisation only', async () => {
    const org = await buildOrganisation(t.db);
    const other = await buildOrganisation(t.db);
    const added = await kontrol(
      'seed:fleet',
      '--org',
      String(org.organisationId),
      '--devices',
      '1200',
      '--addresses',
      '7',
    );
    expect(added).toMatchObject({ code: 0 });
    expect(added.out).toBe(
      `Fleet added to organisation ${org.organisationId}: 7 addresses, 28 rooms, 1200 devices.`,
    );
    const count = async (table: 'addresses' | 'rooms' | 'devices', organisationId: number) =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('organisation_id', '=', organisationId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('devices', org.organisationId)).toBe(1200);
    expect(await count('devices', other.organisationId)).toBe(0);
    // Every device sits in a room of its own organisation, and controller ids are unique.
    const misplaced = await t.db
      .selectFrom('devices')
      .innerJoin('rooms', 'rooms.id', 'devices.room_id')
      .select('devices.id')
      .whereRef('rooms.organisation_id', '!=', 'devices.organisation_id')
      .execute();
    expect(misplaced).toHaveLength(0);
    const zones = await t.db
      .selectFrom('addresses')
      .select('time_zone')
      .distinct()
      .where('organisation_id', '=', org.organisationId)
      .execute();
    expect(zones.length).toBeGreaterThan(1);

    expect((await kontrol('seed:fleet', '--org', String(org.organisationId))).code).toBe(2);
    expect((await kontrol('seed:fleet', '--org', '999999', '--devices', '1')).err).toContain(
      'no organisation has that id',
    );
  });

  it('seed:fleet --days writes the working hours of every smart device and the local days they sum to', async () => {
    const org = await buildOrganisation(t.db);
    const other = await buildOrganisation(t.db);
    const args = ['seed:fleet', '--org', String(org.organisationId), '--devices', '40', '--addresses', '8'];
    expect((await kontrol(...args, '--days', String(93))).err).toContain('--days: at most 92');
    const added = await kontrol(...args, '--days', '3');
    expect(added.err).toBe('');
    expect(added).toMatchObject({ code: 0 });
    expect(added.out).toMatch(/40 devices; \d+ hourly and \d+ daily rollups\.$/);
    await kontrol('seed:fleet', '--org', String(other.organisationId), '--devices', '5');

    const devices = await t.db
      .selectFrom('devices')
      .innerJoin('rooms', 'rooms.id', 'devices.room_id')
      .innerJoin('addresses', 'addresses.id', 'rooms.address_id')
      .select(['devices.id', 'devices.controller_id', 'devices.organisation_id', 'addresses.time_zone'])
      .execute();
    const hours = await t.db.selectFrom('telemetry_hour').selectAll().execute();
    const days = await t.db.selectFrom('telemetry_day').selectAll().execute();
    const byId = new Map(devices.map((device) => [device.id, device]));
    const smart = devices.filter((d) => d.organisation_id === org.organisationId && d.controller_id !== null);
    expect(smart.length).toBeGreaterThan(10);
    // Only the organisation's smart devices have a history; the other organisation's have none.
    const ofOrganisation = (id: number) => byId.get(id)?.organisation_id;
    const owners = new Set(
      hours.filter((row) => ofOrganisation(row.device_id) === org.organisationId).map((row) => row.device_id),
    );
    expect([...owners].sort()).toEqual(smart.map((d) => d.id).sort());
    expect(hours.some((row) => ofOrganisation(row.device_id) === other.organisationId)).toBe(false);

    const now = Date.now();
    for (const device of smart) {
      const own = hours.filter((row) => row.device_id === device.id);
      // Two whole days of 14 working hours, and today's hours that have passed.
      expect(own.length).toBeGreaterThanOrEqual(28);
      expect(own.length).toBeLessThanOrEqual(42);
      const offset = zoneOffsetMs(now, device.time_zone);
      const local = (ts: number) => new Date(Number(ts) + offset).toISOString();
      for (const row of own) {
        const hour = Number(local(row.bucket).slice(11, 13));
        expect(hour).toBeGreaterThanOrEqual(8);
        expect(hour).toBeLessThan(22);
        expect(Number(row.bucket) + 3_600_000).toBeLessThanOrEqual(now);
        expect(row.working_minutes).toBeGreaterThanOrEqual(20);
        expect(row.working_minutes).toBeLessThanOrEqual(60);
        expect(row.working).toBe(row.working_minutes);
      }
      // Each local day holds the sum of its hours.
      const ownDays = days.filter((row) => row.device_id === device.id);
      expect(ownDays.length).toBeGreaterThanOrEqual(2);
      for (const day of ownDays) {
        const ofDay = own.filter((row) => local(row.bucket).slice(0, 10) === day.date);
        expect(ofDay.length).toBeGreaterThan(0);
        expect(day.working_minutes).toBe(ofDay.reduce((sum, row) => sum + row.working_minutes, 0));
        expect(day.samples).toBe(ofDay.length * 60);
        expect(Number(day.first_working_ts)).toBe(
          Math.min(...ofDay.map((row) => Number(row.first_working_ts))),
        );
      }
      expect(ownDays.reduce((n, day) => n + day.samples, 0)).toBe(own.length * 60);
    }
    expect(days.some((day) => ofOrganisation(day.device_id) === other.organisationId)).toBe(false);
  });
});
