export { ConfigError, loadConfig, type Config } from './config.js';
export { crashHandlers, installCrashLogging } from './crash-logging.js';
export { dbPlugin } from './db-plugin.js';
export { clientErrorHandler, errorsPlugin, frameworkErrors } from './errors.js';
export { READY_TIMEOUT_MS, healthRoutes } from './health.js';
export {
  DependencyUnavailableError,
  FieldValidationError,
  HttpError,
  RequestValidationError,
  csrfMismatch,
  forbidden,
  notFound,
  tooManyRequests,
  unauthenticated,
} from './http-errors.js';
export { HTTP_TIMEOUTS, httpTimeoutOptions, limitHttpServer } from './http-limits.js';
export { listenOrExit } from './listen.js';
export { REDACTED, loggerOptions, redactUrl } from './logging.js';
export { Metrics } from './metrics.js';
export { API_HEADERS, securityHeaders, securityHeadersFor, securityPlugin } from './security.js';
