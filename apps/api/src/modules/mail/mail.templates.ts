import type { Locale } from '@kontrol/contracts';
import type { OutgoingMail } from './mail.service.js';

/**
 * The e-mails Kontrol sends about accounts, in the recipient's language. They are plain text (no
 * HTML part), and every subject is a fixed text: nothing a person typed — their name, their
 * organisation's — is ever put into one, so a subject cannot be made to say anything.
 */
interface Recipient {
  email: string;
  name: string;
  locale: Locale;
  organisationId: number;
}

export function passwordResetMail(to: Recipient, link: string, minutes: number): OutgoingMail {
  const texts = {
    ru: {
      subject: 'Kontrol: сброс пароля',
      text: `Здравствуйте, ${to.name}!\n\nКто-то (надеемся, вы) запросил сброс пароля в Kontrol.\nЧтобы задать новый пароль, откройте ссылку (действует ${minutes} минут, один раз):\n\n${link}\n\nЕсли вы не запрашивали сброс, просто проигнорируйте это письмо: пароль не изменится.`,
    },
    en: {
      subject: 'Kontrol: reset your password',
      text: `Hello ${to.name},\n\nSomeone (hopefully you) asked to reset your Kontrol password.\nTo choose a new password, open this link (valid for ${minutes} minutes, once):\n\n${link}\n\nIf you did not ask for this, ignore this e-mail: your password stays as it is.`,
    },
  }[to.locale];
  return { to: to.email, organisationId: to.organisationId, ...texts };
}

export function verificationMail(to: Recipient, link: string, hours: number): OutgoingMail {
  const texts = {
    ru: {
      subject: 'Kontrol: подтвердите e-mail',
      text: `Здравствуйте, ${to.name}!\n\nПодтвердите адрес электронной почты для Kontrol, открыв ссылку (действует ${hours} ч):\n\n${link}\n\nЕсли вы не регистрировались в Kontrol, проигнорируйте это письмо.`,
    },
    en: {
      subject: 'Kontrol: confirm your e-mail address',
      text: `Hello ${to.name},\n\nPlease confirm your e-mail address for Kontrol by opening this link (valid for ${hours} hours):\n\n${link}\n\nIf you did not sign up for Kontrol, ignore this e-mail.`,
    },
  }[to.locale];
  return { to: to.email, organisationId: to.organisationId, ...texts };
}

/** The invitation of a user an administrator added: a link to choose a password (docs/people.md). */
export function invitationMail(
  to: Recipient,
  from: { organisationName: string; inviterName: string },
  link: string,
  hours: number,
): OutgoingMail {
  const days = Math.round(hours / 24);
  const texts = {
    ru: {
      subject: 'Kontrol: приглашение',
      text: `Здравствуйте, ${to.name}!\n\n${from.inviterName} приглашает вас в Kontrol, в организацию «${from.organisationName}».\nЧтобы задать пароль и войти, откройте ссылку (действует ${days} дн., один раз):\n\n${link}\n\nВаш логин — этот адрес: ${to.email}\n\nЕсли вы не ждали приглашения, просто проигнорируйте это письмо.`,
    },
    en: {
      subject: 'Kontrol: you are invited',
      text: `Hello ${to.name},\n\n${from.inviterName} invites you to Kontrol, to the organisation ${from.organisationName}.\nTo choose your password and sign in, open this link (valid for ${days} days, once):\n\n${link}\n\nYou sign in with this address: ${to.email}\n\nIf you did not expect this invitation, ignore this e-mail.`,
    },
  }[to.locale];
  return { to: to.email, organisationId: to.organisationId, ...texts };
}
