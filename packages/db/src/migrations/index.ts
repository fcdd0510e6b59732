import type { Migration } from 'kysely';
import * as foundation from './0001-foundation.js';
import * as placesAndEquipment from './0002-places-and-equipment.js';
import * as fleetVersion from './0003-fleet-version.js';
import * as telemetry from './0004-telemetry.js';
import * as worktimeAndNotifications from './0005-worktime-and-notifications.js';
import * as dayRollups from './0006-day-rollups.js';
import * as notificationsById from './0007-notifications-by-id.js';
import * as deviceEvents from './0008-device-events.js';
import * as recipes from './0009-recipes.js';
import * as people from './0010-people.js';
import * as billing from './0011-billing.js';
import * as testMoney from './0012-test-money.js';
import * as deviceLimits from './0013-device-limits.js';
import * as notificationOccurredAt from './0014-notification-occurred-at.js';
import * as complaintsNamed from './0015-complaints-named.js';
import * as listVersions from './0016-list-versions.js';
import * as samplePartitions from './0017-sample-partitions.js';

/** Every migration in order. Names sort by their number; a landed migration is never edited. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-places-and-equipment': placesAndEquipment,
  '0003-fleet-version': fleetVersion,
  '0004-telemetry': telemetry,
  '0005-worktime-and-notifications': worktimeAndNotifications,
  '0006-day-rollups': dayRollups,
  '0007-notifications-by-id': notificationsById,
  '0008-device-events': deviceEvents,
  '0009-recipes': recipes,
  '0010-people': people,
  '0011-billing': billing,
  '0012-test-money': testMoney,
  '0013-device-limits': deviceLimits,
  '0014-notification-occurred-at': notificationOccurredAt,
  '0015-complaints-named': complaintsNamed,
  '0016-list-versions': listVersions,
  '0017-sample-partitions': samplePartitions,
};
