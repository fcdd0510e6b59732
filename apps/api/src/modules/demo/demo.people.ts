import { complaintBodySchema, complaintEventBodySchema } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { addComplaintEvents, createComplaint } from '../complaints/complaints.service.js';
import { postMessage, replyAsSupport } from '../support-messages/support-messages.service.js';

/**
 * What the demo's people have been saying: a complaint about an oven, taken into work with a
 * comment, and a short exchange with support — so the complaints screen, the dashboard's
 * «Проблемы» and the chat are not empty on a first visit.
 */
export async function seedDemoPeople(
  db: Kysely<Database>,
  admin: { id: number; organisationId: number; name: string },
) {
  const oven = await db
    .selectFrom('devices')
    .innerJoin('device_types', 'device_types.id', 'devices.type_id')
    .select('devices.id')
    .where('devices.organisation_id', '=', admin.organisationId)
    .where('device_types.slug', '=', 'combi_oven')
    .orderBy('devices.id')
    .executeTakeFirst();
  if (oven) {
    const complaint = await createComplaint(
      db,
      admin,
      complaintBodySchema.parse({
        title: 'Печь долго выходит на режим',
        text: 'Утром печь грелась до 180 °C почти 40 минут вместо обычных 15. Проверьте, пожалуйста, ТЭНы.',
        priority: 'high',
        device_id: oven.id,
        assignee_id: admin.id,
      }),
    );
    await addComplaintEvents(
      db,
      admin,
      complaint.id,
      complaintEventBodySchema.parse({
        status: 'in_progress',
        text: 'Вызвали сервисного инженера на завтра, 10:00.',
      }),
      'ru',
    );
  }
  await postMessage(db, admin, 'Здравствуйте! Подскажите, как подключить уведомления в Telegram?');
  await replyAsSupport(db, {
    organisationId: admin.organisationId,
    name: 'Поддержка Kontrol',
    text: 'Здравствуйте! Откройте «Настройки» → «Добавить интеграцию» и перейдите по ссылке в Telegram. Если боту сервера не задан токен, напишите нам — поможем.',
  });
}
