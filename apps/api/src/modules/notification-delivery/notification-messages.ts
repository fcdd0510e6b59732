import { DEVICE_LIMIT_NOTIFICATION_KIND, localDateTime, type Locale } from '@kontrol/contracts';
import type { OutgoingMail } from '../mail/mail.service.js';
import type { ClaimedNotification } from './notification-delivery.repository.js';

/**
 * The e-mails and Telegram messages that carry notifications, in the recipient's language
 * (docs/notifications.md): one per notification, or one digest for a storm.
 */

/** More of one user's notifications than this in one pass, for one channel, make one digest. */
export const DIGEST_THRESHOLD = 10;
/** Titles a digest lists; the rest are counted ("and N more"). */
export const DIGEST_MAX_LINES = 20;

/** Telegram takes at most 4,096 characters a message: long texts are cut to fit. */
const BODY_MAX = 1_500;
const DIGEST_TITLE_MAX = 120;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface MessageRecipient {
  name: string;
  email: string;
  locale: Locale;
  timeZone: string;
}

const SEVERITY: Record<Locale, Record<string, string>> = {
  ru: { info: 'Информация', warning: 'Предупреждение', critical: 'Критично' },
  en: { info: 'Info', warning: 'Warning', critical: 'Critical' },
};

const TEXTS = {
  ru: {
    hello: (name: string) => `Здравствуйте, ${name}!`,
    subject: (severity: string) => `Kontrol: новое уведомление (${severity})`,
    open: 'Открыть в Kontrol:',
    digestSubject: (count: number) => `Kontrol: новые уведомления (${count})`,
    digestIntro: (count: number) => `Новых уведомлений: ${count}.`,
    more: (count: number) => `…и ещё ${count}.`,
    openAll: 'Все уведомления:',
    footer: 'Какие уведомления и куда приходят, можно изменить в настройках пользователя в Kontrol.',
  },
  en: {
    hello: (name: string) => `Hello ${name},`,
    subject: (severity: string) => `Kontrol: new notification (${severity})`,
    open: 'Open in Kontrol:',
    digestSubject: (count: number) => `Kontrol: ${count} new notifications`,
    digestIntro: (count: number) => `You have ${count} new notifications.`,
    more: (count: number) => `…and ${count} more.`,
    openAll: 'All notifications:',
    footer: 'You can change which notifications you get, and where, in your user settings in Kontrol.',
  },
} satisfies Record<Locale, unknown>;

/**
 * Where the console shows a notification: its device event, its complaint, the connection tab of
 * a device over its limits, or the list.
 */
export function notificationLink(appUrl: string, notification: ClaimedNotification): string {
  if (notification.event_id !== null)
    return `${appUrl}/account/device_event_templates/events/${notification.event_id}`;
  if (notification.complaint_id !== null) return `${appUrl}/account/requests/${notification.complaint_id}`;
  if (notification.kind === DEVICE_LIMIT_NOTIFICATION_KIND && notification.device_id !== null)
    return `${appUrl}/account/devices/${notification.device_id}?tab=connection`;
  return notificationsListLink(appUrl);
}

export const notificationsListLink = (appUrl: string) => `${appUrl}/account/telemetry?tab=notifications`;

/** `2025-06-01 07:00 (Europe/Moscow)`: when it happened, on the recipient's clock. */
function localTime(iso: string, timeZone: string): string {
  const { date, time } = localDateTime(Date.parse(iso), timeZone);
  return `${date} ${time} (${timeZone})`;
}

function severityLabel(locale: Locale, severity: string): string {
  return SEVERITY[locale][severity] ?? severity;
}

/** One line of a digest: `[Критично] Title — 2025-06-01 07:00`. */
function digestLines(locale: Locale, timeZone: string, notifications: readonly ClaimedNotification[]) {
  const shown = notifications.slice(0, DIGEST_MAX_LINES).map((notification) => {
    const { date, time } = localDateTime(Date.parse(notification.created_at), timeZone);
    const title = clip(notification.title, DIGEST_TITLE_MAX);
    return `[${severityLabel(locale, notification.severity)}] ${title} — ${date} ${time}`;
  });
  const hidden = notifications.length - shown.length;
  return hidden > 0 ? [...shown, TEXTS[locale].more(hidden)] : shown;
}

export function notificationMail(
  to: MessageRecipient,
  notification: ClaimedNotification,
  appUrl: string,
): Omit<OutgoingMail, 'organisationId' | 'notBefore'> {
  const texts = TEXTS[to.locale];
  return {
    to: to.email,
    // Fixed words only: a title holds what people typed (a complaint's, a device's name).
    subject: texts.subject(severityLabel(to.locale, notification.severity)),
    text: [
      texts.hello(to.name),
      '',
      `${severityLabel(to.locale, notification.severity)}: ${notification.title}`,
      notification.body,
      localTime(notification.created_at, to.timeZone),
      '',
      `${texts.open} ${notificationLink(appUrl, notification)}`,
      '',
      '--',
      texts.footer,
    ].join('\n'),
  };
}

export function digestMail(
  to: MessageRecipient,
  notifications: readonly ClaimedNotification[],
  appUrl: string,
): Omit<OutgoingMail, 'organisationId' | 'notBefore'> {
  const texts = TEXTS[to.locale];
  return {
    to: to.email,
    subject: texts.digestSubject(notifications.length),
    text: [
      texts.hello(to.name),
      '',
      texts.digestIntro(notifications.length),
      '',
      ...digestLines(to.locale, to.timeZone, notifications),
      '',
      `${texts.openAll} ${notificationsListLink(appUrl)}`,
      '',
      '--',
      texts.footer,
    ].join('\n'),
  };
}

/** A Telegram message: plain text (no parse mode), the link last so the chat shows its preview. */
export function notificationTelegram(
  to: MessageRecipient,
  notification: ClaimedNotification,
  appUrl: string,
): string {
  return [
    `${severityLabel(to.locale, notification.severity)}: ${notification.title}`,
    clip(notification.body, BODY_MAX),
    localTime(notification.created_at, to.timeZone),
    notificationLink(appUrl, notification),
  ].join('\n');
}

export function digestTelegram(
  to: MessageRecipient,
  notifications: readonly ClaimedNotification[],
  appUrl: string,
): string {
  return [
    TEXTS[to.locale].digestIntro(notifications.length),
    '',
    ...digestLines(to.locale, to.timeZone, notifications),
    '',
    notificationsListLink(appUrl),
  ].join('\n');
}
