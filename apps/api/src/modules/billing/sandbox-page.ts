import type { Locale } from '@kontrol/contracts';
import { escapeHtml } from '../../lib/html.js';

/**
 * The sandbox provider's payment page (docs/billing.md "The sandbox"): the amount and two buttons,
 * pay or decline. Plain HTML with its own style, in the payer's language; no script.
 */

const TEXTS = {
  ru: {
    title: 'Тестовая оплата',
    note: 'Песочница Kontrol: деньги не списываются. Выберите, чем закончится платёж.',
    payment: 'Платёж',
    amount: 'Сумма',
    pay: 'Оплатить',
    decline: 'Отклонить платёж',
    settled: 'Этот платёж уже завершён.',
    back: 'Вернуться в Kontrol',
  },
  en: {
    title: 'Test payment',
    note: 'Kontrol sandbox: no money is taken. Choose how the payment ends.',
    payment: 'Payment',
    amount: 'Amount',
    pay: 'Pay',
    decline: 'Decline the payment',
    settled: 'This payment has already been completed.',
    back: 'Back to Kontrol',
  },
} as const;

export function sandboxPage(page: {
  locale: Locale;
  amount: string;
  paymentId: number;
  status: 'pending' | 'succeeded' | 'failed';
  action: string;
}): string {
  const t = TEXTS[page.locale];
  const body =
    page.status === 'pending'
      ? `<form method="post" action="${escapeHtml(page.action)}">
      <button type="submit" name="outcome" value="succeeded" class="pay">${t.pay} ${escapeHtml(page.amount)} ₽</button>
      <button type="submit" name="outcome" value="failed" class="decline">${t.decline}</button>
    </form>`
      : `<p>${t.settled}</p><p><a href="/account/billing?payment=${page.paymentId}">${t.back}</a></p>`;
  return `<!doctype html>
<html lang="${page.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title} — Kontrol</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f1f3f5; color: #212529; margin: 0; }
  main { max-width: 420px; margin: 64px auto; background: #fff; border-radius: 8px; padding: 32px;
    box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  h1 { font-size: 22px; margin: 0 0 8px; }
  .note { color: #495057; margin: 0 0 24px; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 8px 16px; margin: 0 0 24px; }
  dt { color: #495057; } dd { margin: 0; font-weight: 600; }
  form { display: grid; gap: 12px; }
  button { font: inherit; padding: 12px; border-radius: 6px; border: 1px solid transparent; cursor: pointer; }
  .pay { background: #1864ab; color: #fff; }
  .decline { background: #fff; color: #c92a2a; border-color: #c92a2a; }
  button:focus-visible, a:focus-visible { outline: 3px solid #1c7ed6; outline-offset: 2px; }
  a { color: #1864ab; }
</style>
</head>
<body>
<main>
  <h1>${t.title}</h1>
  <p class="note">${t.note}</p>
  <dl><dt>${t.payment}</dt><dd>№ ${page.paymentId}</dd><dt>${t.amount}</dt><dd>${escapeHtml(page.amount)} ₽</dd></dl>
  ${body}
</main>
</body>
</html>`;
}
