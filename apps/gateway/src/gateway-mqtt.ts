import type { GatewayMqtt } from './gateway.js';
import type { Config } from '@kontrol/server-kit';

/**
 * The MQTT side of a process's gateway, from the settings: `runsMqtt` in the one API process that
 * runs it (apps/api's `AppOptions.runsMqtt`), always in a gateway process of its own (`main.ts`).
 */
export function gatewayMqtt(config: Config, runsMqtt: boolean): GatewayMqtt {
  const consume = runsMqtt && config.mqttConsume;
  if (config.mqttUrl)
    return { mode: 'external', url: config.mqttUrl, consume, clientIdBase: config.mqttClientId };
  if (consume && config.mqttEmbedded) return { mode: 'embedded', ...config.mqttEmbedded };
  return false;
}
