// Splits the console's Russian catalogue in two (`node scripts/split-locales.mjs`): the texts the
// first bundle needs (the shell: app/, lib/, components/, early/, config/ and the auth pages) stay
// in `locales/ru/translation.json`, which is bundled with the login page; the texts only the
// account screens use move to `locales/ru/account.json`, which loads with the account layout
// (lib/i18n.ts, `loadAccountTexts`). English needs no catalogue at run time (the keys are the
// English sentences). `src/lib/i18n.test.ts` runs `splitRussian` and fails when the files drift
// from it: run this script after adding texts.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONSOLE_SRC = join(dirname(fileURLToPath(import.meta.url)), '../apps/console/src');

/**
 * Source files whose texts only the account screens need: every feature but auth, and the few
 * shared files that only account screens import. Everything else is the shell.
 */
export function isAccountFile(path) {
  const file = path.split('\\').join('/');
  if (file.endsWith('.test.ts') || file.endsWith('.test.tsx')) return true;
  if (file.startsWith('features/')) return !file.startsWith('features/auth/');
  return (
    file.startsWith('test/') ||
    file.startsWith('lib/device-stat/') ||
    file.startsWith('lib/device-events/') ||
    file.startsWith('lib/device-groups/') ||
    file.startsWith('lib/reference-data/') ||
    file === 'lib/user-settings.ts' ||
    file === 'lib/labels.ts' ||
    file === 'components/detail-state.tsx' ||
    file === 'components/paged-table.tsx' ||
    file === 'app/routes/device-page.tsx' ||
    file === 'components/telemetry-chart.tsx' ||
    file === 'components/notification-settings-form.tsx' ||
    file === 'components/time-field.tsx' ||
    file === 'app/routes/device-event-templates-page.tsx'
  );
}

function sources(dir, root = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sources(path, root);
    return /\.(ts|tsx)$/.test(entry.name)
      ? [{ file: relative(root, path), text: readFileSync(path, 'utf8') }]
      : [];
  });
}

/** Whether `key` is written in `text` as a string literal (any quote, escaped as the source would). */
function mentions(text, key) {
  const forms = [`'${key.replaceAll("'", "\\'")}'`, `"${key.replaceAll('"', '\\"')}"`, `\`${key}\``];
  return forms.some((form) => text.includes(form));
}

/**
 * The two catalogues: a text is the account's when it is mentioned only in account files; a text
 * mentioned nowhere (or in a shell file) stays in the shell, where it is always at hand.
 */
export function splitRussian(srcDir = CONSOLE_SRC) {
  const ru = {
    ...JSON.parse(readFileSync(join(srcDir, 'locales/ru/translation.json'), 'utf8')),
    ...JSON.parse(readFileSync(join(srcDir, 'locales/ru/account.json'), 'utf8')),
  };
  const files = sources(srcDir);
  const shellText = files
    .filter((f) => !isAccountFile(f.file))
    .map((f) => f.text)
    .join('\n');
  const accountText = files
    .filter((f) => isAccountFile(f.file))
    .map((f) => f.text)
    .join('\n');
  const shell = {};
  const account = {};
  for (const key of Object.keys(ru).sort()) {
    const onlyAccount = mentions(accountText, key) && !mentions(shellText, key);
    (onlyAccount ? account : shell)[key] = ru[key];
  }
  return { shell, account };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { shell, account } = splitRussian();
  const write = (name, texts) =>
    writeFileSync(join(CONSOLE_SRC, 'locales/ru', name), `${JSON.stringify(texts, null, 2)}\n`);
  write('translation.json', shell);
  write('account.json', account);
  console.log(`ru: ${Object.keys(shell).length} shell texts, ${Object.keys(account).length} account texts`);
}
