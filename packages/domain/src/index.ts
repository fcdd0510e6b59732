export type { DeviceAccounts } from './device-accounts.js';
export {
  EVENT_NOTIFY_MODULES,
  eventRecipients,
  notifyEvent,
  type EventToNotify,
} from './event-notifications.js';
export { parseNorms, parseRules } from './templates.js';
export {
  bytesOf,
  deviceHoldings,
  programBytes,
  setFileName,
  type DeviceHoldings,
  type HeldFile,
  type ProgramBytes,
} from './program-holdings.js';
