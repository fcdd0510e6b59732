import type { GatewayMqtt } from '@kontrol/gateway';
import type { Config } from '@kontrol/server-kit';

/** The MQTT side of a process's gateway (app.ts, `AppOptions.runsMqtt`), from the settings. */
export function gatewayMqtt(config: Config, runsMqtt: boolean): GatewayMqtt {
  const consume = runsMqtt && config.mqttConsume;
  if (config.mqttUrl)
    return { mode: 'external', url: config.mqttUrl, consume, clientIdBase: config.mqttClientId };
  if (consume && config.mqttEmbedded) return { mode: 'embedded', ...config.mqttEmbedded };
  return false;
}
