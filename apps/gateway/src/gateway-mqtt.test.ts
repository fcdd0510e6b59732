import { describe, expect, it } from 'vitest';
import { loadConfig } from '@kontrol/server-kit';
import { gatewayMqtt } from './gateway-mqtt.js';

const BROKER = 'mqtt://kontrol:secret@broker.example:1883';

describe("a process's MQTT side", () => {
  it('takes telemetry from the external broker where it runs MQTT, unless MQTT_CONSUME=0', () => {
    expect(gatewayMqtt(loadConfig({ MQTT_URL: BROKER }), true)).toMatchObject({
      mode: 'external',
      consume: true,
    });
    // API processes beside gateway processes: device accounts are kept, telemetry is the gateways'.
    expect(gatewayMqtt(loadConfig({ MQTT_URL: BROKER, MQTT_CONSUME: '0' }), true)).toMatchObject({
      mode: 'external',
      consume: false,
    });
    expect(gatewayMqtt(loadConfig({ MQTT_URL: BROKER }), false)).toMatchObject({ consume: false });
  });

  it('runs the embedded broker only where it runs MQTT and consumes', () => {
    expect(gatewayMqtt(loadConfig({ MQTT_PORT: '18830' }), true)).toMatchObject({
      mode: 'embedded',
      port: 18830,
    });
    expect(gatewayMqtt(loadConfig({ MQTT_PORT: '18830', MQTT_CONSUME: 'false' }), true)).toBe(false);
    expect(gatewayMqtt(loadConfig({ MQTT_PORT: '18830' }), false)).toBe(false);
    expect(gatewayMqtt(loadConfig({ MQTT_PORT: 'off' }), true)).toBe(false);
  });
});
