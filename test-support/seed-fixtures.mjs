// `node test-support/seed-fixtures.mjs <database URL> [suffix]`: the fixtures of server.mjs's
// `seedFixtures`, made by the operator CLI's commands (`apps/api/dist/cli.js`) run one after another
// in this one process, and printed as JSON. Seven commands each in a Node process of their own
// loaded the server's modules seven times: a second of CPU each, on every spec that seeds.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../scripts/build-if-needed.mjs';
import { ALL_MODULES } from './server.mjs';

const [databaseUrl, suffix = ''] = process.argv.slice(2);
if (!databaseUrl) {
  console.error('usage: node test-support/seed-fixtures.mjs <database URL> [suffix]');
  process.exit(2);
}
/** @type {{ runCli: (argv: string[], io: { env: NodeJS.ProcessEnv, out: (line: string) => void, err: (line: string) => void }) => Promise<number> }} */
const kontrol = await import(pathToFileURL(join(ROOT, 'apps/api/dist/cli.js')).href);

/** One CLI command, as `npm run kontrol -- …` runs it; its output, or an error with what it said. */
async function cli(/** @type {string[]} */ args) {
  /** @type {string[]} */
  const out = [];
  /** @type {string[]} */
  const err = [];
  const code = await kontrol.runCli(args, {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  if (code !== 0) throw new Error(`kontrol ${args[0]} failed: ${[...err, ...out].join('\n')}`);
  return out.join('\n');
}

/** @param {string} output @param {RegExp} pattern @param {string} what */
function capture(output, pattern, what) {
  const match = pattern.exec(output);
  if (!match?.[1]) throw new Error(`could not read the ${what} from: ${output}`);
  return Number(match[1]);
}

const password = 'kontrol-e2e-1234';
const mail = (/** @type {string} */ local) => `${local}${suffix}@e2e.kontrol.test`;

const admin = { email: mail('admin'), password, name: 'Анна Админова', modules: ALL_MODULES };
const organisationId = capture(
  await cli([
    'org:create',
    '--name',
    `E2E ${suffix || 'organisation'}`,
    '--admin-email',
    admin.email,
    '--admin-name',
    admin.name,
    '--password',
    password,
  ]),
  /^Organisation (\d+) created; admin user \d+ </m,
  'organisation id',
);
const role = async (/** @type {string} */ name, /** @type {string[]} */ modules) =>
  capture(
    await cli([
      'role:create',
      '--org',
      String(organisationId),
      '--name',
      name,
      '--modules',
      modules.join(','),
    ]),
    /^Access role (\d+) created with /m,
    'access role id',
  );
const recipesRole = await role('Повар', ['recipes']);
const dashboardUsersRole = await role('Менеджер', ['dashboard', 'users']);

const user = async (
  /** @type {string} */ local,
  /** @type {string} */ name,
  /** @type {number | null} */ roleId,
  /** @type {string[]} */ modules,
) => {
  const login = { email: mail(local), password, name, modules };
  const args = ['user:create', '--org', String(organisationId), '--email', login.email, '--name', name];
  if (roleId !== null) args.push('--acl-role', String(roleId));
  await cli([...args, '--password', password]);
  return login;
};
const fixtures = {
  organisationId,
  admin,
  recipes: await user('recipes', 'Роман Рецептов', recipesRole, ['recipes']),
  noModules: await user('nomodules', 'Нина Безмодульная', null, []),
  dashboardUsers: await user('manager', 'Мария Менеджерова', dashboardUsersRole, ['dashboard', 'users']),
  profile: await user('profile', 'Пётр Профилев', dashboardUsersRole, ['dashboard', 'users']),
};
process.stdout.write(JSON.stringify(fixtures));
