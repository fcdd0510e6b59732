import { hash, verify } from '@node-rs/argon2';
import { randomSecret } from './crypto.js';

/** The cost of an argon2id hash: memory in KiB, passes, lanes. */
export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's argon2id baseline: 19 MiB, two passes, one lane. */
export const PASSWORD_HASH_COST: PasswordHashCost = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

let cost = PASSWORD_HASH_COST;

/**
 * For the test suites only (src/test/cheap-password-hashing.ts): their thousands of sign-ins and new
 * users otherwise spend over a minute of CPU in argon2. A hash carries its own cost, so a password
 * hashed at one cost verifies whatever the current one is.
 */
export function setPasswordHashCostForTests(next: PasswordHashCost): void {
  cost = next;
}

export function hashPassword(password: string): Promise<string> {
  // Algorithm.Argon2id is a const enum, not importable under verbatimModuleSyntax.
  return hash(password, { algorithm: 2, ...cost });
}

let decoyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (unknown e-mail, or a user who never set a
 * password) it still spends the same time on a decoy, so timing does not reveal which e-mails exist.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    decoyHash ??= hashPassword(randomSecret());
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
