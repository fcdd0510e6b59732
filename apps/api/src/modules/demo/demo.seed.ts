import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { createOrganisationWithAdmin } from '../organisations/organisations.service.js';
import { countOrganisations } from '../organisations/organisations.repository.js';
import { findUserByEmail } from '../users/users.repository.js';
import { seedDemoBilling } from './demo.billing.js';
import { seedDemoPeople } from './demo.people.js';
import { seedDemoRecipes } from './demo.recipes.js';
import { seedFleet } from './fleet.seed.js';

/** The demo login printed by `npm start` and shown in the README. */
export const DEMO_LOGIN = { email: 'demo@example.com', password: 'demo1234' } as const;
export const DEMO_ORGANISATION = 'Демо-ресторан «Контроль»';

/** What the demo organisation holds: three sites in different time zones, a couple of dozen devices. */
export const DEMO_FLEET = { addresses: 3, devices: 24 } as const;

/**
 * Creates the demo organisation, its admin, fleet, recipes, a complaint, a support exchange and
 * two weeks of billing unless the demo user exists; true if it did.
 */
export async function seedDemo(db: Kysely<Database>): Promise<boolean> {
  if (await findUserByEmail(db, DEMO_LOGIN.email)) return false;
  const { organisationId, userId } = await createOrganisationWithAdmin(db, {
    organisationName: DEMO_ORGANISATION,
    admin: {
      name: 'Демо Администратор',
      email: DEMO_LOGIN.email,
      password: DEMO_LOGIN.password,
      locale: 'ru',
      verified: true,
    },
  });
  await seedFleet(db, organisationId, DEMO_FLEET);
  await seedDemoRecipes(db, organisationId);
  await seedDemoPeople(db, { id: userId, organisationId, name: 'Демо Администратор' });
  await seedDemoBilling(db, organisationId);
  return true;
}

/** On a new empty database only: a fresh install gets the demo, a real one is never touched. */
export async function seedDemoIfEmpty(db: Kysely<Database>): Promise<boolean> {
  if ((await countOrganisations(db)) > 0) return false;
  return seedDemo(db);
}
