/**
 * The outbox delivers in lanes, one per kind of side effect, each with its
 * own bounded concurrency, so a backlog or a slow receiver in one lane never
 * holds back another: a webhook receiver that takes 10 s to answer does not
 * delay a password mail.
 */
export const OUTBOX_LANES = ['mail', 'webhook', 'message'] as const;
export type OutboxLaneName = (typeof OUTBOX_LANES)[number];

/**
 * The lane each kind of outbox row is delivered in. A new kind is one line
 * here (and its handler, registered with the worker). `realtime` rows are
 * in-process events.
 */
export const LANE_OF_KIND = {
  mail: 'mail',
  webhook: 'webhook',
  realtime: 'message',
  guest_message: 'message',
} as const satisfies Record<string, OutboxLaneName>;

export type OutboxKind = keyof typeof LANE_OF_KIND;

/**
 * The lane that also takes rows of a kind no lane names (a row written by an
 * older or newer version of the service): it attempts them, and without a
 * handler they fail visibly with their reason instead of waiting unseen.
 */
export const DEFAULT_LANE: OutboxLaneName = 'message';

export function isOutboxLane(value: string): value is OutboxLaneName {
  return (OUTBOX_LANES as readonly string[]).includes(value);
}

export function laneOfKind(kind: string): OutboxLaneName {
  return (LANE_OF_KIND as Record<string, OutboxLaneName>)[kind] ?? DEFAULT_LANE;
}

/** Which rows a lane claims: its kinds, or for the default lane every kind the others do not name. */
export type LaneKinds = { only: string[] } | { except: string[] };

export function kindsOfLane(lane: OutboxLaneName): LaneKinds {
  const named = Object.entries(LANE_OF_KIND) as Array<[string, OutboxLaneName]>;
  if (lane === DEFAULT_LANE) {
    return { except: named.filter(([, of]) => of !== lane).map(([kind]) => kind) };
  }
  return { only: named.filter(([, of]) => of === lane).map(([kind]) => kind) };
}
