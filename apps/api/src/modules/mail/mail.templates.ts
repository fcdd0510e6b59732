import type { Locale } from '@kontrol/contracts';
import type { OutgoingMail } from './mail.service.js';

/** The e-mails Kontrol sends about accounts, in the recipient's language. */
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
