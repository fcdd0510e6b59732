import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  LOCALES,
  MODULE_SLUGS,
  nameProblem,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SUPPORT_MESSAGE_MAX_LENGTH,
  USER_ROLES,
  translate,
} from '@kontrol/contracts';
import { createDb, migrateToLatest, type DatabaseHandle } from '@kontrol/db';
import pino from 'pino';
import { z } from 'zod';
import { isCommonPassword } from './lib/common-passwords.js';
import { randomSecret } from './lib/crypto.js';
import { type Config, ConfigError, FieldValidationError, loadConfig } from '@kontrol/server-kit';
import { insertRole, listClientModules } from './modules/acl/acl.repository.js';
import { createLoginLink } from './modules/auth/auth.service.js';
import { DEMO_LOGIN, seedDemo } from './modules/demo/demo.seed.js';
import { HISTORY_MAX_DAYS } from './modules/demo/fleet-history.seed.js';
import { seedFleet } from './modules/demo/fleet.seed.js';
import { latestMailTo } from './modules/mail/mail.repository.js';
import { MailService } from './modules/mail/mail.service.js';
import { organisationExists } from './modules/organisations/organisations.repository.js';
import { createOrganisationWithAdmin } from './modules/organisations/organisations.service.js';
import { findUserByEmail } from './modules/users/users.repository.js';
import { createUser, setPassword } from './modules/users/users.service.js';
import {
  DEFAULT_SUPPORT_NAME,
  SupportInputError,
  replyAsSupport,
  takeSupportInbox,
} from './modules/support-messages/support-messages.service.js';
import { billingAccounts, setTariff } from './modules/billing/billing-operator.js';
import { InvoiceNotFound, markInvoicePaidAndCredit } from './modules/billing/documents.service.js';
import { post as postLedgerEntry, postDailyCharges } from './modules/billing/ledger.service.js';
import { RateLimiter } from './plugins/rate-limit.js';

/** `npm run kontrol -- <command> [options]`: the operators' tool. */
const HELP = `Kontrol operator tool

Usage: npm run kontrol -- <command> [options]

Commands:
  migrate                      Apply pending database migrations.
  org:create                   Create an organisation with its first (admin) user.
      --name <text>              organisation name (required)
      --admin-email <email>      the admin's e-mail (required)
      --admin-name <text>        the admin's name (default: the e-mail's part before @)
      --password <text>          the admin's password (default: a generated one, printed)
      --locale ru|en             language of the admin's e-mails (default: ru)
  user:create                  Add a user to an existing organisation.
      --org <id>                 organisation id (required)
      --email <email>            (required)
      --name <text>              (default: the e-mail's part before @)
      --role regular|admin       (default: regular)
      --acl-role <id>            access role of that organisation (default: none)
      --password <text>          (default: a generated one, printed)
      --locale ru|en             (default: ru)
  user:set-password            Set a user's password; their sessions and tokens end.
      --email <email>            (required)
      --password <text>          (default: a generated one, printed)
  user:login-link              Print a one-time link on APP_URL that signs in as the user
                               (for support; APP_URL must be set).
      --email <email>            (required)
  role:create                  Add an access role to an organisation.
      --org <id>                 organisation id (required)
      --name <text>              (required)
      --modules <slugs>          comma-separated module slugs, e.g. dashboard,recipes (default: none)
  seed:fleet                   Add addresses, rooms and devices to an organisation (demo, load tests).
      --org <id>                 organisation id (required)
      --devices <n>              how many devices (required, up to 100000)
      --addresses <n>            how many addresses (default: one per 25 devices)
      --days <n>                 days of hourly and daily rollups for the smart devices, today
                                 included (default: 0, up to ${HISTORY_MAX_DAYS})
  seed:demo                    Create the demo organisation (${DEMO_LOGIN.email}) if it is missing.
  support:reply                Answer an organisation in its support chat (its messages count as read).
      --org <id>                 organisation id (required)
      --text <text>              the answer (required, up to ${SUPPORT_MESSAGE_MAX_LENGTH} characters)
      --name <text>              who signs it (default: ${DEFAULT_SUPPORT_NAME})
  support:inbox                Print the organisations' unread support messages, oldest first, and
                               mark them read.
      --org <id>                 only this organisation's (default: every organisation's)
  mail:show                    Print the latest e-mails to an address (sent, queued or, without
                               SMTP_URL, kept in the outbox), newest first, with their text.
      --email <email>            (required)
      --last <n>                 how many (default: 1, up to 50)
  billing:charge               Post the daily charges due now (every API process also does this
                               every BILLING_CHARGE_CHECK_MINUTES); safe to repeat.
  billing:tariff               Set an organisation's tariff: kopecks per smart device per day.
      --org <id>                 organisation id (required)
      --rate-kopecks <n>         e.g. 1500 for 15 ₽ (required unless --default)
      --default                  go back to the deployment's BILLING_DAILY_RATE_KOPECKS
  billing:invoice-paid         Mark an invoice paid (the bank transfer arrived); credits the
                               organisation's balance once.
      --number <year-n>          the invoice's number, e.g. 2026-17 (required)
  billing:adjust               A correction or refund on an organisation's ledger.
      --org <id>                 organisation id (required)
      --amount-kopecks=<n>       positive credits, negative debits (--amount-kopecks=-500)
      --description <text>       why, shown in the organisation's history (required)
      --kind correction|refund   (default: correction)
  billing:accounts             Print every organisation's balance, tariff and smart devices,
                               the lowest balance first.
  help                         Show this help.

The database is the one DATABASE_URL names (default sqlite:./data/kontrol.db).
`;

const COMMANDS = [
  'migrate',
  'org:create',
  'user:create',
  'user:set-password',
  'user:login-link',
  'role:create',
  'seed:fleet',
  'seed:demo',
  'support:reply',
  'support:inbox',
  'mail:show',
  'billing:charge',
  'billing:tariff',
  'billing:invoice-paid',
  'billing:adjust',
  'billing:accounts',
];

class UsageError extends Error {}

const emailSchema = z.email();
const passwordSchema = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);

type Options = Record<string, string | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function optional(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function email(options: Options, name: string) {
  const value = required(options, name);
  if (!emailSchema.safeParse(value).success)
    throw new UsageError(`--${name}: "${value}" is not an e-mail address`);
  return value.toLowerCase();
}

/**
 * A person's or an organisation's name, held to the same rule as the API's forms (no links, e-mail
 * addresses or control characters); `fallback` when the option is not given.
 */
function nameOption(options: Options, name: string, fallback?: string): string {
  const value = fallback === undefined ? required(options, name) : (optional(options, name) ?? fallback);
  const problem = nameProblem(value);
  if (problem) throw new UsageError(`--${name}: ${translate('en', problem)}`);
  return value;
}

/** The part of an e-mail address before the @: a name to start with when none is given. */
const localPart = (address: string) => address.slice(0, address.indexOf('@'));

function oneOf<T extends string>(options: Options, name: string, allowed: readonly T[], fallback: T): T {
  const value = optional(options, name) ?? fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of: ${allowed.join(', ')}`);
  }
  return value as T;
}

function positiveInt(options: Options, name: string, isRequired: boolean): number | undefined {
  const value = isRequired ? required(options, name) : optional(options, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${name} must be a positive whole number`);
  return Number(value);
}

function wholeNumber(options: Options, name: string): number {
  const value = required(options, name);
  if (!/^-?\d{1,12}$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

/** The given password checked against the policy, or a generated one (shown once). */
function password(options: Options): { value: string; generated: boolean } {
  const given = optional(options, 'password');
  if (given === undefined) return { value: randomSecret(12), generated: true };
  if (!passwordSchema.safeParse(given).success) {
    throw new UsageError(`--password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
  if (isCommonPassword(given)) throw new UsageError('--password is too common; choose another');
  return { value: given, generated: false };
}

async function run(
  command: string,
  options: Options,
  database: DatabaseHandle,
  config: Config,
  out: (line: string) => void,
) {
  const db = database.db;
  switch (command) {
    case 'migrate': {
      const { applied } = await migrateToLatest(db);
      out(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
      return;
    }
    case 'org:create': {
      const adminEmail = email(options, 'admin-email');
      const pwd = password(options);
      await migrateToLatest(db);
      const created = await createOrganisationWithAdmin(db, {
        organisationName: nameOption(options, 'name'),
        admin: {
          name: nameOption(options, 'admin-name', localPart(adminEmail)),
          email: adminEmail,
          password: pwd.value,
          locale: oneOf(options, 'locale', LOCALES, 'ru'),
          verified: true,
        },
      });
      out(`Organisation ${created.organisationId} created; admin user ${created.userId} <${adminEmail}>.`);
      if (pwd.generated) out(`Password: ${pwd.value}`);
      return;
    }
    case 'user:create': {
      const userEmail = email(options, 'email');
      const pwd = password(options);
      const userId = await createUser(db, {
        organisationId: positiveInt(options, 'org', true) as number,
        name: nameOption(options, 'name', localPart(userEmail)),
        email: userEmail,
        password: pwd.value,
        role: oneOf(options, 'role', USER_ROLES, 'regular'),
        aclRoleId: positiveInt(options, 'acl-role', false) ?? null,
        locale: oneOf(options, 'locale', LOCALES, 'ru'),
        verified: true,
      });
      out(`User ${userId} <${userEmail}> created.`);
      if (pwd.generated) out(`Password: ${pwd.value}`);
      return;
    }
    case 'user:set-password': {
      const user = await findUserByEmail(db, email(options, 'email'));
      if (!user) throw new UsageError('no user has that e-mail');
      const pwd = password(options);
      await setPassword(db, user.id, pwd.value);
      out(`Password of <${user.email}> changed; their sessions have ended.`);
      if (pwd.generated) out(`Password: ${pwd.value}`);
      return;
    }
    case 'user:login-link': {
      // The link is for the console people use: without APP_URL it would point at this machine's
      // HOST:PORT, which is not where support or the user opens it.
      if (!config.appUrlSet) {
        throw new UsageError(
          "APP_URL is not set: set it to the console's public address, as the server has it " +
            '(APP_URL=https://kontrol.example.com npm run kontrol -- user:login-link --email …)',
        );
      }
      const user = await findUserByEmail(db, email(options, 'email'));
      if (!user) throw new UsageError('no user has that e-mail');
      if (user.disabled_at) throw new UsageError('that user is disabled');
      const silent = pino({ level: 'silent' });
      const link = await createLoginLink(
        {
          db,
          mail: new MailService(db, silent, { smtpUrl: undefined, from: config.mailFrom }),
          rateLimiter: new RateLimiter(db),
          appUrl: config.appUrl,
        },
        user.id,
      );
      out(`One-time login link for <${user.email}> (valid 15 minutes, works once):`);
      out(link.url);
      return;
    }
    case 'role:create': {
      const organisationId = positiveInt(options, 'org', true) as number;
      const slugs = (optional(options, 'modules') ?? '')
        .split(',')
        .map((slug) => slug.trim())
        .filter(Boolean);
      const unknown = slugs.filter((slug) => !(MODULE_SLUGS as readonly string[]).includes(slug));
      if (unknown.length > 0) {
        throw new UsageError(`--modules: unknown ${unknown.join(', ')}; known: ${MODULE_SLUGS.join(', ')}`);
      }
      if (!(await organisationExists(db, organisationId)))
        throw new UsageError('no organisation has that id');
      const modules = await listClientModules(db);
      const roleId = await insertRole(db, {
        organisationId,
        name: required(options, 'name'),
        isAdminRole: false,
        moduleIds: modules.filter((m) => slugs.includes(m.slug)).map((m) => m.id),
      });
      out(`Access role ${roleId} created with ${slugs.length > 0 ? slugs.join(', ') : 'no modules'}.`);
      return;
    }
    case 'seed:fleet': {
      const organisationId = positiveInt(options, 'org', true) as number;
      const devices = positiveInt(options, 'devices', true) as number;
      if (devices > 100_000) throw new UsageError('--devices: at most 100000');
      const addresses = positiveInt(options, 'addresses', false);
      const historyDays = positiveInt(options, 'days', false) ?? 0;
      if (historyDays > HISTORY_MAX_DAYS) throw new UsageError(`--days: at most ${HISTORY_MAX_DAYS}`);
      if (!(await organisationExists(db, organisationId)))
        throw new UsageError('no organisation has that id');
      const added = await seedFleet(db, organisationId, { devices, addresses, historyDays });
      out(
        `Fleet added to organisation ${organisationId}: ${added.addresses} addresses, ` +
          `${added.rooms} rooms, ${added.devices} devices` +
          (historyDays > 0
            ? `; ${added.history.hours} hourly and ${added.history.days} daily rollups.`
            : '.'),
      );
      return;
    }
    case 'seed:demo': {
      await migrateToLatest(db);
      const created = await seedDemo(db);
      out(
        created
          ? `Demo organisation created: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`
          : 'The demo organisation already exists.',
      );
      return;
    }
    case 'support:reply': {
      const organisationId = positiveInt(options, 'org', true) as number;
      const text = required(options, 'text');
      if (!(await organisationExists(db, organisationId)))
        throw new UsageError('no organisation has that id');
      try {
        const { message, markedRead } = await replyAsSupport(db, {
          organisationId,
          text,
          name: optional(options, 'name') ?? DEFAULT_SUPPORT_NAME,
        });
        out(
          `Reply ${message.id} sent to organisation ${organisationId} as "${message.author.name}"; ` +
            `${markedRead} of its messages marked read.`,
        );
      } catch (error) {
        if (error instanceof SupportInputError) throw new UsageError(error.message);
        throw error;
      }
      return;
    }
    case 'support:inbox': {
      const organisationId = positiveInt(options, 'org', false);
      if (organisationId !== undefined && !(await organisationExists(db, organisationId)))
        throw new UsageError('no organisation has that id');
      const messages = await takeSupportInbox(db, organisationId);
      if (messages.length === 0) {
        out('No unread messages.');
        return;
      }
      for (const message of messages) {
        out(
          `#${message.id} ${message.created_at} organisation ${message.organisation_id} ` +
            `(${message.organisation_name}), ${message.author_name}:`,
        );
        out(message.text.replace(/^/gm, '  '));
      }
      out(`${messages.length} message(s) marked read.`);
      return;
    }
    case 'mail:show': {
      const to = email(options, 'email');
      const last = positiveInt(options, 'last', false) ?? 1;
      if (last > 50) throw new UsageError('--last must be at most 50');
      const mails = await latestMailTo(db, to, last);
      if (mails.length === 0) {
        out(`No e-mail to ${to}.`);
        return;
      }
      for (const mail of mails) {
        out(`#${mail.id} ${mail.created_at} [${mail.status}] ${mail.subject}`);
        out(mail.text_body.replace(/^/gm, '  '));
      }
      return;
    }
    case 'billing:charge': {
      const posted = await postDailyCharges(db, { dailyRateKopecks: config.billing.dailyRateKopecks });
      out(`${posted} daily charge(s) posted.`);
      return;
    }
    case 'billing:tariff': {
      const organisationId = positiveInt(options, 'org', true) as number;
      if (!(await organisationExists(db, organisationId)))
        throw new UsageError('no organisation has that id');
      const rate = options.default === true ? null : wholeNumber(options, 'rate-kopecks');
      if (rate !== null && (rate < 0 || rate > 100_000_00))
        throw new UsageError('--rate-kopecks must be 0 to 10000000');
      await setTariff(db, organisationId, rate);
      out(
        rate === null
          ? `Organisation ${organisationId} now pays the default ${config.billing.dailyRateKopecks} kopecks per smart device per day.`
          : `Organisation ${organisationId} now pays ${rate} kopecks per smart device per day.`,
      );
      return;
    }
    case 'billing:invoice-paid': {
      try {
        const paid = await markInvoicePaidAndCredit(db, required(options, 'number'));
        out(
          paid === 'already_paid'
            ? 'That invoice was paid already; nothing changed.'
            : `Invoice paid: ${paid.amount} kopecks credited to organisation ${paid.organisationId}; balance ${paid.balance}.`,
        );
      } catch (error) {
        if (error instanceof InvoiceNotFound) throw new UsageError(error.message);
        throw error;
      }
      return;
    }
    case 'billing:adjust': {
      const organisationId = positiveInt(options, 'org', true) as number;
      if (!(await organisationExists(db, organisationId)))
        throw new UsageError('no organisation has that id');
      const amount = wholeNumber(options, 'amount-kopecks');
      if (amount === 0 || Math.abs(amount) > 100_000_000_00)
        throw new UsageError('--amount-kopecks must not be 0 and at most 10000000000 either way');
      const description = required(options, 'description');
      if (description.length > 500) throw new UsageError('--description must be at most 500 characters');
      const kind = oneOf(options, 'kind', ['correction', 'refund'] as const, 'correction');
      const posted = await postLedgerEntry(db, {
        organisationId,
        kind,
        amount,
        description,
        reference: null,
      });
      out(
        `Entry ${posted?.entryId} posted; organisation ${organisationId}'s balance is ${posted?.balance} kopecks.`,
      );
      return;
    }
    case 'billing:accounts': {
      const accounts = await billingAccounts(db, config.billing.dailyRateKopecks);
      if (accounts.length === 0) out('No organisations.');
      for (const account of accounts) {
        out(
          `organisation ${account.id} (${account.name}): balance ${account.balance}, ` +
            `${account.smartDevices} smart device(s) × ${account.dailyRate} kopecks/day`,
        );
      }
      return;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

const processIo: CliIo = {
  env: process.env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** Runs one command; resolves to the exit code (0 done, 1 failed, 2 wrong usage). */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        'admin-email': { type: 'string' },
        'admin-name': { type: 'string' },
        password: { type: 'string' },
        locale: { type: 'string' },
        org: { type: 'string' },
        email: { type: 'string' },
        role: { type: 'string' },
        'acl-role': { type: 'string' },
        modules: { type: 'string' },
        devices: { type: 'string' },
        addresses: { type: 'string' },
        days: { type: 'string' },
        text: { type: 'string' },
        last: { type: 'string' },
        'rate-kopecks': { type: 'string' },
        default: { type: 'boolean' },
        number: { type: 'string' },
        'amount-kopecks': { type: 'string' },
        description: { type: 'string' },
        kind: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`Error: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const command = parsed.positionals[0];
  if (!command || command === 'help' || parsed.values.help) {
    io.out(HELP);
    return command || parsed.values.help ? 0 : 2;
  }
  if (!COMMANDS.includes(command)) {
    io.err(
      `Error: unknown command "${command}"\nRun "npm run kontrol -- help" for the commands and their options.`,
    );
    return 2;
  }
  let database: DatabaseHandle | undefined;
  try {
    const config = loadConfig(io.env);
    database = createDb(config.databaseUrl, { poolMax: 2 });
    await run(command, parsed.values, database, config, io.out);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`Error: ${error.message}\nRun "npm run kontrol -- help" for the commands and their options.`);
      return 2;
    }
    if (error instanceof FieldValidationError) {
      const problems = Object.entries(error.fields).map(
        ([field, keys]) => `${field}: ${keys.map((k) => translate('en', k)).join(' ')}`,
      );
      io.err(`Error: ${problems.join('; ')}`);
      return 1;
    }
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await database?.close();
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) process.exitCode = await runCli(process.argv.slice(2));
