import { randomUUID } from 'node:crypto';
import {
  COMMAND_CHANNEL,
  STATUS_CHANNEL,
  TELEMETRY_CHANNEL,
  TOPIC_ROOT,
  deviceTopic,
} from '@kontrol/contracts';
import { DependencyUnavailableError } from '@kontrol/server-kit';
import type { MqttClient } from 'mqtt';

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
const SERVICE_ROLE = 'kontrol-service';
const TIMEOUT_MS = 10_000;

/** The broker could not be told (unreachable, or it refused a command): the change is rolled back. */
export class BrokerAccountsError extends DependencyUnavailableError {
  constructor(message: string) {
    super(message, 'mqtt.broker_unavailable', 'MQTT broker accounts unavailable');
    this.name = 'BrokerAccountsError';
  }
}

interface DynsecResponse {
  command: string;
  error?: string;
  data?: unknown;
  correlationData?: string;
}

/** The role of one device: its own telemetry and status to publish, its own commands to read. */
export function deviceRoleName(controllerId: string) {
  return `kontrol-device-${controllerId}`;
}

function deviceAcls(controllerId: string) {
  return [
    { acltype: 'publishClientSend', topic: deviceTopic(controllerId, TELEMETRY_CHANNEL), allow: true },
    { acltype: 'publishClientSend', topic: deviceTopic(controllerId, STATUS_CHANNEL), allow: true },
    { acltype: 'subscribePattern', topic: deviceTopic(controllerId, COMMAND_CHANNEL), allow: true },
  ];
}

/**
 * Device accounts in an external Mosquitto 2 broker, through its dynamic-security plugin
 * (docs/device-protocol.md, "External broker"). Each device gets a client (user name and client id
 * = controller id, password = its credential) and a role of its own allowing exactly its three
 * topics; Mosquitto 2.0 does not substitute `%u` in dynamic-security ACLs, so one shared role
 * cannot do it. Commands go to `$CONTROL/dynamic-security/v1` and are answered on its `/response`
 * topic, matched by `correlationData`.
 */
export class DynamicSecurity {
  private readonly waiting = new Map<string, (responses: DynsecResponse[]) => void>();

  private constructor(
    private readonly client: MqttClient,
    readonly serviceUser: string,
  ) {
    client.on('message', (topic, payload) => {
      if (topic !== RESPONSE_TOPIC) return;
      let body: { responses?: DynsecResponse[] };
      try {
        body = JSON.parse(payload.toString()) as { responses?: DynsecResponse[] };
      } catch {
        return;
      }
      const responses = body.responses ?? [];
      const id = responses[0]?.correlationData;
      const resolve = id ? this.waiting.get(id) : undefined;
      if (id && resolve) {
        this.waiting.delete(id);
        resolve(responses);
      }
    });
  }

  /** Connects with the service account of `url` (it must hold dynamic-security admin rights). */
  static async connect(url: string, clientId: string): Promise<DynamicSecurity> {
    const parsed = new URL(url);
    // mqtt.js is loaded by the first connection: a gateway with the embedded broker never needs it.
    const { default: mqtt } = await import('mqtt');
    const client = await mqtt.connectAsync(url, {
      clientId,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 2_000,
      connectTimeout: TIMEOUT_MS,
    });
    await client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 });
    const accounts = new DynamicSecurity(client, decodeURIComponent(parsed.username));
    await accounts.ensureServiceRole();
    return accounts;
  }

  async close() {
    await this.client.endAsync();
  }

  /** Runs commands in one message; resolves with one response per command. */
  async run(commands: Record<string, unknown>[]): Promise<DynsecResponse[]> {
    if (!this.client.connected) throw new BrokerAccountsError('The MQTT broker is not reachable.');
    const id = randomUUID();
    const answered = new Promise<DynsecResponse[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new BrokerAccountsError('The MQTT broker did not answer.'));
      }, TIMEOUT_MS);
      this.waiting.set(id, (responses) => {
        clearTimeout(timer);
        resolve(responses);
      });
    });
    await this.client.publishAsync(
      CONTROL_TOPIC,
      JSON.stringify({ commands: commands.map((command) => ({ ...command, correlationData: id })) }),
      { qos: 1 },
    );
    return answered;
  }

  private static check(responses: DynsecResponse[], tolerated: RegExp = /^$/) {
    const failed = responses.find((response) => response.error && !tolerated.test(response.error));
    if (failed) throw new BrokerAccountsError(`The MQTT broker refused ${failed.command}: ${failed.error}`);
  }

  /**
   * Creates a device's account with this credential, replacing one of the same controller id
   * (a retry, a rotation, a controller id used before): its connections end.
   */
  async createDevice(controllerId: string, secret: string): Promise<void> {
    const rolename = deviceRoleName(controllerId);
    const answers = await this.run([
      { command: 'createRole', rolename, acls: deviceAcls(controllerId) },
      { command: 'deleteClient', username: controllerId },
      {
        command: 'createClient',
        username: controllerId,
        clientid: controllerId,
        password: secret,
        roles: [{ rolename }],
      },
    ]);
    DynamicSecurity.check(answers.slice(0, 2), /already exists|not found/i);
    DynamicSecurity.check(answers.slice(2));
  }

  /** Removes a device's account and role; connected sessions end. Absent accounts are fine. */
  async deleteDevice(controllerId: string): Promise<void> {
    DynamicSecurity.check(
      await this.run([
        { command: 'deleteClient', username: controllerId },
        { command: 'deleteRole', rolename: deviceRoleName(controllerId) },
      ]),
      /not found/i,
    );
  }

  /**
   * Lets Kontrol's own account read every device's topics and send commands, once: the role is
   * added to the account only when it lacks it. Mosquitto ends the connections of an account whose
   * roles change (so new rules apply at once), this one included: the answer to that command never
   * comes; the client reconnects, and the role is checked again.
   */
  private async ensureServiceRole() {
    if (await this.hasServiceRole()) return;
    const all = (channel: string) => `${TOPIC_ROOT}/+/${channel}`;
    DynamicSecurity.check(
      await this.run([
        {
          command: 'createRole',
          rolename: SERVICE_ROLE,
          acls: [
            { acltype: 'subscribePattern', topic: all(TELEMETRY_CHANNEL), allow: true },
            { acltype: 'subscribePattern', topic: all(STATUS_CHANNEL), allow: true },
            { acltype: 'publishClientReceive', topic: all(TELEMETRY_CHANNEL), allow: true },
            { acltype: 'publishClientReceive', topic: all(STATUS_CHANNEL), allow: true },
            { acltype: 'publishClientSend', topic: all(COMMAND_CHANNEL), allow: true },
          ],
        },
      ]),
      /already exists/i,
    );
    const reconnected = new Promise<void>((resolve) => this.client.once('connect', () => resolve()));
    await this.client.publishAsync(
      CONTROL_TOPIC,
      JSON.stringify({
        commands: [{ command: 'addClientRole', username: this.serviceUser, rolename: SERVICE_ROLE }],
      }),
      { qos: 1 },
    );
    await Promise.race([reconnected, new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS))]);
    if (!this.client.connected) throw new BrokerAccountsError('The MQTT broker did not take Kontrol back.');
    await this.client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 });
    if (!(await this.hasServiceRole()))
      throw new BrokerAccountsError(
        `The MQTT account ${this.serviceUser} could not be given the ${SERVICE_ROLE} role.`,
      );
  }

  private async hasServiceRole(): Promise<boolean> {
    const [answer] = await this.run([{ command: 'getClient', username: this.serviceUser }]);
    if (answer?.error) throw new BrokerAccountsError(`The MQTT broker refused getClient: ${answer.error}`);
    const roles = (answer?.data as { client?: { roles?: { rolename: string }[] } } | undefined)?.client
      ?.roles;
    return roles?.some((role) => role.rolename === SERVICE_ROLE) ?? false;
  }
}
