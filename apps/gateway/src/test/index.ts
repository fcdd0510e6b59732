/** The gateway's test support, for its own tests and the API's tests of both sides (`@kontrol/gateway/testing`). */
export {
  connectDevice,
  cookingSample,
  cookingSamples,
  listenOnce,
  postTelemetry,
  storedCount,
  type IngestAnswer,
} from './ingest-clients.js';
