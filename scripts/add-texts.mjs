// Adds console texts (`node scripts/add-texts.mjs texts.json`, the file holding
// {"English sentence": "Русский текст", …}): the English key goes to locales/en/translation.json,
// the Russian text to the Russian catalogue, which is then split again (scripts/split-locales.mjs).
// Several people adding texts at once: run it under `flock /tmp/kontrol-locales.lock`.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitRussian } from './split-locales.mjs';

const LOCALES = join(dirname(fileURLToPath(import.meta.url)), '../apps/console/src/locales');
const read = (name) => JSON.parse(readFileSync(join(LOCALES, name), 'utf8'));
const write = (name, texts) => {
  const sorted = Object.fromEntries(
    Object.keys(texts)
      .sort()
      .map((key) => [key, texts[key]]),
  );
  writeFileSync(join(LOCALES, name), `${JSON.stringify(sorted, null, 2)}\n`);
};

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/add-texts.mjs texts.json');
  process.exit(2);
}
const added = JSON.parse(readFileSync(file, 'utf8'));
const en = read('en/translation.json');
const ru = read('ru/translation.json');
const accountTexts = read('ru/account.json');
for (const [key, russian] of Object.entries(added)) {
  if (typeof russian !== 'string' || russian.trim() === '') throw new Error(`no Russian text for "${key}"`);
  en[key] = key;
  ru[key] = russian;
  delete accountTexts[key]; // a changed text: the split puts it back where it belongs
}
write('en/translation.json', en);
write('ru/translation.json', ru);
write('ru/account.json', accountTexts);
const { shell, account } = splitRussian();
write('ru/translation.json', shell);
write('ru/account.json', account);
console.log(`added ${Object.keys(added).length} texts`);
