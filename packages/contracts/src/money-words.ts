/**
 * Amounts on Russian invoices and acts (DOMAIN.md "Money and documents (Russia)"): in figures and
 * in words. Money is integer kopecks everywhere.
 */

/** The largest amount in words: 999 999 999 999 roubles 99 kopecks. */
export const MAX_AMOUNT_IN_WORDS_KOPECKS = 99_999_999_999_999;

type Gender = 'masculine' | 'feminine';
/** The forms after 1, after 2–4, and after 5–20 and 0 (also 11–14). */
type Forms = readonly [one: string, few: string, many: string];

const ONES_MASCULINE = ['', 'один', 'два', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'];
const ONES_FEMININE = ['', 'одна', 'две', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'];
const TEENS = [
  'десять',
  'одиннадцать',
  'двенадцать',
  'тринадцать',
  'четырнадцать',
  'пятнадцать',
  'шестнадцать',
  'семнадцать',
  'восемнадцать',
  'девятнадцать',
];
const TENS = [
  '',
  '',
  'двадцать',
  'тридцать',
  'сорок',
  'пятьдесят',
  'шестьдесят',
  'семьдесят',
  'восемьдесят',
  'девяносто',
];
const HUNDREDS = [
  '',
  'сто',
  'двести',
  'триста',
  'четыреста',
  'пятьсот',
  'шестьсот',
  'семьсот',
  'восемьсот',
  'девятьсот',
];

const ROUBLES: Forms = ['рубль', 'рубля', 'рублей'];
const KOPECKS: Forms = ['копейка', 'копейки', 'копеек'];
/** Groups of three digits from the highest: billions, millions, thousands. */
const SCALES: readonly { size: number; forms: Forms; gender: Gender }[] = [
  { size: 1_000_000_000, forms: ['миллиард', 'миллиарда', 'миллиардов'], gender: 'masculine' },
  { size: 1_000_000, forms: ['миллион', 'миллиона', 'миллионов'], gender: 'masculine' },
  { size: 1_000, forms: ['тысяча', 'тысячи', 'тысяч'], gender: 'feminine' },
];

/** The form of a noun after `count`: 1, 21, 101 → one; 2–4, 22–24 → few; 0, 5–20, 11–14, 25–30 → many. */
function pluralForm(count: number, forms: Forms): string {
  const lastTwo = count % 100;
  const last = count % 10;
  if (lastTwo >= 11 && lastTwo <= 14) return forms[2];
  if (last === 1) return forms[0];
  if (last >= 2 && last <= 4) return forms[1];
  return forms[2];
}

/** 1–999 in words, with one/two agreeing with the gender of the noun that follows. */
function hundredsInWords(value: number, gender: Gender): string[] {
  const words: string[] = [];
  const hundreds = Math.floor(value / 100);
  const rest = value % 100;
  if (hundreds > 0) words.push(HUNDREDS[hundreds] ?? '');
  if (rest >= 10 && rest < 20) {
    words.push(TEENS[rest - 10] ?? '');
  } else {
    const tens = Math.floor(rest / 10);
    const ones = rest % 10;
    if (tens > 0) words.push(TENS[tens] ?? '');
    if (ones > 0) words.push((gender === 'feminine' ? ONES_FEMININE : ONES_MASCULINE)[ones] ?? '');
  }
  return words;
}

function checkKopecks(kopecks: number): void {
  if (!Number.isInteger(kopecks)) throw new RangeError(`The amount must be whole kopecks, got ${kopecks}.`);
  if (kopecks < 0) throw new RangeError(`The amount must not be negative, got ${kopecks}.`);
  if (kopecks > MAX_AMOUNT_IN_WORDS_KOPECKS) throw new RangeError(`The amount is too large, got ${kopecks}.`);
}

/**
 * The amount in Russian words as on invoices: 120000 → 'Одна тысяча двести рублей 00 копеек'.
 * Roubles in words, kopecks as two digits. Throws RangeError for negatives, fractions of a kopeck
 * and more than 999 999 999 999 roubles 99 kopecks.
 */
export function amountInWordsRu(kopecks: number): string {
  checkKopecks(kopecks);
  const roubles = Math.floor(kopecks / 100);
  const cents = kopecks % 100;

  const words: string[] = [];
  let rest = roubles;
  for (const scale of SCALES) {
    const group = Math.floor(rest / scale.size);
    rest %= scale.size;
    if (group > 0) words.push(...hundredsInWords(group, scale.gender), pluralForm(group, scale.forms));
  }
  if (rest > 0) words.push(...hundredsInWords(rest, 'masculine'));
  if (roubles === 0) words.push('ноль');
  words.push(pluralForm(roubles % 1000, ROUBLES));

  const text = `${words.join(' ')} ${String(cents).padStart(2, '0')} ${pluralForm(cents, KOPECKS)}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The amount in figures for documents: 120000 → '1 200,00' (groups split by U+00A0, comma before kopecks). */
export function formatKopecksRu(kopecks: number): string {
  if (!Number.isSafeInteger(kopecks))
    throw new RangeError(`The amount must be whole kopecks, got ${kopecks}.`);
  const sign = kopecks < 0 ? '-' : '';
  const absolute = Math.abs(kopecks);
  const roubles = String(Math.floor(absolute / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00A0');
  return `${sign}${roubles},${String(absolute % 100).padStart(2, '0')}`;
}
