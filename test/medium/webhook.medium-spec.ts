import { randomUUID } from 'node:crypto';
import { NewEndpoint, WebhookRepository } from '../../src/webhook/webhook.repository';
import { createMediumContext, MediumContext } from '../support/medium';

// R39: outbound webhooks.
/**
 * The webhook repository on a real database, no HTTP: the per-owner count
 * under its lock, which endpoints an event goes to, attempt numbers, the
 * delivery log and the failure count that disables an endpoint.
 */
describe('webhook repository (medium)', () => {
  let ctx: MediumContext;
  let webhooks: WebhookRepository;

  beforeAll(async () => {
    ctx = await createMediumContext({ providers: [WebhookRepository] });
    webhooks = ctx.get(WebhookRepository);
  });
  afterAll(() => ctx?.close());

  function endpoint(ownerUuid: string, overrides: Partial<NewEndpoint> = {}): NewEndpoint {
    return {
      uuid: randomUUID(),
      ownerUuid,
      businessUuid: null,
      url: 'https://hooks.example.test/in',
      description: null,
      events: ['order.created'],
      secretCiphertext: 'ciphertext',
      ...overrides,
    };
  }

  const insert = (e: NewEndpoint) =>
    ctx.dataSource.transaction((m) => webhooks.insertEndpoint(m, e));

  it('concurrent creates counted under the owner lock never pass the limit', async () => {
    const owner = randomUUID();
    const create = () =>
      ctx.dataSource.transaction(async (m) => {
        if ((await webhooks.lockAndCountForOwner(m, owner)) >= 2) return false;
        await webhooks.insertEndpoint(m, endpoint(owner));
        return true;
      });
    const outcomes = await Promise.all([create(), create(), create(), create()]);
    expect(outcomes.filter(Boolean)).toHaveLength(2);
    expect(await webhooks.listForOwner(owner)).toHaveLength(2);
  });

  it('matches enabled endpoints of the owner by event type and business, oldest first', async () => {
    const owner = randomUUID();
    const business = randomUUID();
    const all = await insert(endpoint(owner, { events: ['order.created', 'ping'] }));
    const mine = await insert(endpoint(owner, { businessUuid: business }));
    await insert(endpoint(owner, { businessUuid: randomUUID() }));
    await insert(endpoint(owner, { events: ['order.status_changed'] }));
    const off = await insert(endpoint(owner));
    await webhooks.updateEndpoint(off.uuid, { enabled: false });
    await insert(endpoint(randomUUID()));
    const matched = await ctx.dataSource.transaction((m) =>
      webhooks.matchingEndpoints(m, owner, business, 'order.created'),
    );
    expect(matched).toEqual([all.uuid, mine.uuid]);
  });

  it('numbers attempts per event, logs them newest first and records an outcome once', async () => {
    const hook = await insert(endpoint(randomUUID()));
    const eventUuid = randomUUID();
    const now = new Date('2026-03-01T10:00:00Z');
    const attempts = await ctx.dataSource.transaction(async (m) => {
      await webhooks.insertEvent(m, {
        uuid: eventUuid,
        endpointUuid: hook.uuid,
        type: 'order.created',
        body: '{"type":"order.created"}',
        createdAt: now,
      });
      const made: string[] = [];
      for (const second of [0, 1]) {
        const attempt = await webhooks.nextAttemptNumber(m, eventUuid);
        const at = new Date(now.getTime() + second * 1000);
        made.push(
          await webhooks.insertAttempt(m, {
            eventUuid,
            endpointUuid: hook.uuid,
            attempt,
            createdAt: at,
            dueAt: at,
          }),
        );
      }
      return made;
    });
    const log = await webhooks.listDeliveries(hook.uuid, 1, 10);
    expect(log.total).toBe(2);
    expect(log.rows.map((row) => [row.uuid, row.attempt, row.status, row.eventType])).toEqual([
      [attempts[1], 2, 'pending', 'order.created'],
      [attempts[0], 1, 'pending', 'order.created'],
    ]);
    const outcome = {
      status: 'succeeded' as const,
      responseStatus: 200,
      error: null,
      responseBody: 'ok',
      durationMs: 12,
      nextAttemptAt: null,
    };
    const finish = () =>
      ctx.dataSource.transaction((m) => webhooks.finishAttempt(m, attempts[0], outcome));
    expect(await finish()).toBe(true);
    expect(await finish()).toBe(false);
    expect(await webhooks.findDelivery(attempts[0])).toMatchObject({
      status: 'succeeded',
      responseStatus: 200,
      durationMs: 12,
    });
    expect(await webhooks.findAttemptToSend(attempts[1])).toMatchObject({
      attempt: 2,
      eventUuid,
      body: '{"type":"order.created"}',
      endpointUuid: hook.uuid,
      enabled: true,
      secretCiphertext: 'ciphertext',
    });
    expect(await webhooks.findAttemptToSend(randomUUID())).toBeNull();
  });

  it('disables an endpoint at the limit of failures in a row, answering true only that once; a success resets the count', async () => {
    const hook = await insert(endpoint(randomUUID()));
    const fail = () => ctx.dataSource.transaction((m) => webhooks.countFailure(m, hook.uuid, 3));
    expect(await fail()).toBe(false);
    await ctx.dataSource.transaction((m) => webhooks.resetFailures(m, hook.uuid));
    expect([await fail(), await fail(), await fail(), await fail()]).toEqual([
      false,
      false,
      true,
      false,
    ]);
    expect(await webhooks.findEndpoint(hook.uuid)).toMatchObject({
      enabled: false,
      consecutiveFailures: 4,
    });
    expect(await ctx.dataSource.transaction((m) => webhooks.countFailure(m, randomUUID(), 3))).toBe(
      false,
    );
  });
});
