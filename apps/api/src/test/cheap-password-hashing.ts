import { setPasswordHashCostForTests, type PasswordHashCost } from '../lib/password.js';

/**
 * Setup file of the API's Vitest projects: argon2id at 1 MiB and one pass instead of OWASP's
 * baseline, which security/passwords.test.ts checks that the app uses.
 */
export const CHEAP_PASSWORD_HASH_COST: PasswordHashCost = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

setPasswordHashCostForTests(CHEAP_PASSWORD_HASH_COST);
