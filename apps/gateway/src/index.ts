export { Gateway, type DeviceAccounts, type GatewayMqtt, type GatewayOptions } from './gateway.js';
export { DeviceDirectory, credentialHash, type GatewayDevice } from './devices/device-directory.js';
export { IngestPipeline, type IngestOutcome } from './ingest/pipeline.js';
export { createTelemetryStore } from './ingest/create-store.js';
export { EmbeddedBroker, PortInUseError } from './mqtt/embedded-broker.js';
export { ExternalBroker, SHARE_GROUP } from './mqtt/external-broker.js';
export { BrokerAccountsError, DynamicSecurity, deviceRoleName } from './mqtt/dynamic-security.js';
export { INGEST_PATH } from './http/ingest-routes.js';
export { DeviceLimiter, DeviceLimitError, type DayDelta } from './limits/device-limiter.js';
export { UsageRecorder } from './limits/usage-recorder.js';
export type { GatewayStats } from './stats.js';
export { RulesEngine } from './rules/rules-engine.js';
export {
  notifyEvent,
  closeRuleEvent,
  EVENT_NOTIFY_MODULES,
  parseNorms,
  parseRules,
  type EventToNotify,
} from './rules/event-store.js';
export { effectiveState, evaluate, noDataDue, conditionKey, type RuleTemplate } from './rules/evaluate.js';
export { ProgramDispatcher, PROGRAM_DISPATCH_EVERY_MS, type DispatchPass } from './programs/dispatcher.js';
export {
  bytesOf,
  deviceHoldings,
  programBytes,
  setFileName,
  type DeviceHoldings,
  type HeldFile,
  type ProgramBytes,
} from './programs/holdings.js';
