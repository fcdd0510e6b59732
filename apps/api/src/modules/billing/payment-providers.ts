import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Locale, PaymentProviderName } from '@kontrol/contracts';
import { z } from 'zod';

/**
 * How Kontrol takes money (docs/billing.md "Payments"). A provider registers a payment, sends the
 * payer to its own page, and later tells Kontrol the outcome in a signed callback to
 * `POST /api/payment/callback/<name>`; the ledger is credited only from a verified callback, once.
 * A real provider (ЮKassa, CloudPayments, Tinkoff) plugs in by implementing this interface.
 * `PAYMENT_PROVIDER` names the one in use; without one, top-up is by invoice only.
 */
export interface PaymentProvider {
  readonly name: string;
  /**
   * Its credits are money nobody paid (a sandbox, a provider's test mode): the ledger marks each
   * one as test money, for good.
   */
  readonly testMoney: boolean;
  /**
   * Registers the payment; answers the provider's id for it and the page the payer confirms on,
   * in the payer's language (`locale`: the console's, from the request).
   */
  create(payment: { id: number; amount: number; description: string; locale: Locale }): Promise<{
    externalId: string;
    confirmationUrl: string;
  }>;
  /** Reads a callback: throws {@link InvalidCallback} unless it is genuine, else what it says. */
  verifyCallback(
    body: unknown,
    headers: Record<string, string | string[] | undefined>,
  ): { externalId: string; status: 'succeeded' | 'failed'; amount: number };
}

export class InvalidCallback extends Error {}

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

const sandboxCallbackSchema = z.object({
  payment_id: z.string().min(1).max(128),
  status: z.enum(['succeeded', 'failed']),
  amount: z.number().int(),
});
export type SandboxCallback = z.infer<typeof sandboxCallbackSchema>;

/**
 * The sandbox: a provider inside Kontrol for demos and tests. Its payment page is
 * `GET /api/payment/sandbox/<id>` (billing.routes.ts); the payer chooses success or failure and the
 * page sends the signed callback, exactly as a real provider's server would. Its id is 24 random
 * bytes, so only who was given the link can settle the payment. The signing key is made anew for
 * each process: the sandbox's callback always comes back to the process that signed it.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  readonly testMoney = true;
  private readonly secret = randomBytes(32);

  constructor(private readonly appUrl: string) {}

  create(payment: { locale: Locale }): Promise<{ externalId: string; confirmationUrl: string }> {
    const externalId = randomBytes(24).toString('base64url');
    return Promise.resolve({
      externalId,
      confirmationUrl: `${this.appUrl}/api/payment/sandbox/${externalId}?lang=${payment.locale}`,
    });
  }

  /** HMAC-SHA256 over `payment_id.status.amount`, hex: what the sandbox's page sends with a callback. */
  sign(callback: SandboxCallback): string {
    return createHmac('sha256', this.secret)
      .update(`${callback.payment_id}.${callback.status}.${callback.amount}`)
      .digest('hex');
  }

  verifyCallback(body: unknown, headers: Record<string, string | string[] | undefined>) {
    const parsed = sandboxCallbackSchema.safeParse(body);
    const signature = headers[SANDBOX_SIGNATURE_HEADER];
    if (!parsed.success || typeof signature !== 'string') throw new InvalidCallback('malformed callback');
    const expected = Buffer.from(this.sign(parsed.data), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new InvalidCallback('bad signature');
    }
    return { externalId: parsed.data.payment_id, status: parsed.data.status, amount: parsed.data.amount };
  }
}

/** The provider `PAYMENT_PROVIDER` names, or null for none (top-up by invoice only). */
export function createPaymentProvider(
  name: PaymentProviderName | null,
  appUrl: string,
): PaymentProvider | null {
  switch (name) {
    case 'sandbox':
      return new SandboxProvider(appUrl);
    case null:
      return null;
  }
}
