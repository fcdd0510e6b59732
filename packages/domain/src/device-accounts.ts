/**
 * Device accounts in the broker. The embedded broker reads credentials from the database, so it
 * needs none; an external one is told of every credential issued and every device removed, inside
 * the transaction that changes the device (a broker that cannot be told makes the change fail).
 */
export interface DeviceAccounts {
  /** An external broker cannot rename an account without its secret: a new controller id needs a new credential. */
  readonly renameNeedsNewCredential: boolean;
  issued(controllerId: string, secret: string): Promise<void>;
  removed(controllerId: string): Promise<void>;
}
