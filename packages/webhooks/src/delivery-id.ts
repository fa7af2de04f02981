import { createHash } from 'node:crypto';

/**
 * The delivery id of one event to one endpoint: derived from both, so a repeated fan-out (a
 * duplicate queue message, a sweep, a retry after a crash) finds the same delivery instead of
 * creating a second one. Same shape as every id (`whd_` + 9 base36 characters of time + 16
 * more), the time being the event's, so ids still sort by creation.
 */
export function deliveryIdFor(eventId: string, eventCreatedAt: string, endpointId: string): string {
  const time = Date.parse(eventCreatedAt).toString(36).padStart(9, '0');
  const digest = createHash('sha256').update(`${eventId}:${endpointId}`).digest();
  const tail = BigInt(`0x${digest.subarray(0, 16).toString('hex')}`)
    .toString(36)
    .padStart(16, '0')
    .slice(-16);
  return `whd_${time}${tail}`;
}
