import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A URL-safe random secret with `bytes` bytes of entropy. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Hex SHA-256: how secrets (sessions, tokens) are stored, so a leaked table holds none. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Compares two strings in time independent of where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
