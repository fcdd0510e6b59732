// The live events' schemas, loaded with the stream's first message (live-stream.ts): they bring
// zod, which an account page needs for nothing else before it has shown.
export {
  liveDeviceEventsEventSchema,
  liveDevicesEventSchema,
  liveNotificationsEventSchema,
  liveSamplesEventSchema,
} from '@kontrol/contracts';
