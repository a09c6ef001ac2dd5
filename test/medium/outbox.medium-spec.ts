import { randomUUID } from 'node:crypto';
import { ClaimRequest, OutboxRepository } from '../../src/outbox/outbox.repository';
import { createMediumContext, MediumContext } from '../support/medium';

/**
 * The outbox worker's repository on a real database, no HTTP: claims by
 * lane, oldest first, within a receiver's cap and the lane's free slots,
 * never the same row twice; leases, retries, sent and failed rows.
 *
 * Rows are due in 2099, so the module's own worker (on the service clock)
 * leaves them alone; the claims here name a later `now`.
 */
describe('outbox repository (medium)', () => {
  let ctx: MediumContext;
  let outbox: OutboxRepository;
  const future = (minute: number) => new Date(Date.UTC(2099, 0, 1, 0, minute));
  const now = future(30);
  const lease = future(40);

  beforeAll(async () => {
    ctx = await createMediumContext({ providers: [OutboxRepository] });
    outbox = ctx.get(OutboxRepository);
  });
  afterAll(() => ctx?.close());

  /** A pending row of a kind of its own (no other test claims it). */
  async function enqueue(kind: string, minute: number, receiver: string | null = null) {
    const [row] = await ctx.sql<{ uuid: string }>(
      `INSERT INTO outbox (kind, payload, receiver, available_at, created_at)
       VALUES ($1, $2::jsonb, $3, $4, $4) RETURNING uuid::text AS uuid`,
      [kind, JSON.stringify({ minute }), receiver, future(minute)],
    );
    return row.uuid;
  }

  const request = (kind: string, overrides: Partial<ClaimRequest> = {}): ClaimRequest => ({
    kinds: { only: [kind] },
    take: 10,
    perReceiver: 10,
    busy: new Map(),
    ...overrides,
  });

  const kind = () => `m_${randomUUID().slice(0, 8)}`;

  it('claims due rows of the lane oldest first, counting the attempt and leasing them', async () => {
    const mine = kind();
    const first = await enqueue(mine, 1);
    const second = await enqueue(mine, 2);
    await enqueue(mine, 50);
    await enqueue(kind(), 1);
    const claimed = await outbox.claimDue(now, lease, request(mine));
    expect(claimed.rows.map((row) => [row.uuid, row.attempts, row.payload])).toEqual([
      [first, 1, { minute: 1 }],
      [second, 1, { minute: 2 }],
    ]);
    expect((await outbox.claimDue(now, lease, request(mine))).rows).toEqual([]);
    const again = await outbox.claimDue(future(55), future(59), request(mine));
    expect(again.rows.map((row) => [row.uuid, row.attempts])).toEqual([
      [first, 2],
      [second, 2],
      [expect.any(String), 1],
    ]);
  });

  it("leaves a receiver's rows beyond its cap, counting what is in flight, and says it saw them", async () => {
    const mine = kind();
    const rows = [
      await enqueue(mine, 1, 'a'),
      await enqueue(mine, 2, 'a'),
      await enqueue(mine, 3, 'a'),
    ];
    const other = await enqueue(mine, 4, 'b');
    const claimed = await outbox.claimDue(
      now,
      lease,
      request(mine, { perReceiver: 2, busy: new Map([['a', 1]]) }),
    );
    expect(claimed.rows.map((row) => row.uuid)).toEqual([rows[0], other]);
    expect(claimed.seen).toBe(4);
    const capped = await outbox.claimDue(
      now,
      lease,
      request(mine, { perReceiver: 2, busy: new Map([['a', 2]]) }),
    );
    expect(capped.rows.map((row) => row.uuid)).toEqual([]);
  });

  it('two concurrent claims never take the same row', async () => {
    const mine = kind();
    for (let minute = 1; minute <= 6; minute += 1) await enqueue(mine, minute);
    const [a, b] = await Promise.all([
      outbox.claimDue(now, lease, request(mine, { take: 4 })),
      outbox.claimDue(now, lease, request(mine, { take: 4 })),
    ]);
    const taken = [...a.rows, ...b.rows].map((row) => row.uuid);
    expect(new Set(taken).size).toBe(taken.length);
    // A claim skips the rows the other has locked: what neither took is there for the next one.
    const rest = await outbox.claimDue(now, lease, request(mine, { take: 6 }));
    const all = [...taken, ...rest.rows.map((row) => row.uuid)];
    expect(new Set(all).size).toBe(6);
    expect(all).toHaveLength(6);
  });

  it('renews leases of pending rows only, retries with the error, and records sent and failed rows', async () => {
    const mine = kind();
    const [sent, retried, failed] = [
      await enqueue(mine, 1),
      await enqueue(mine, 2),
      await enqueue(mine, 3),
    ];
    await outbox.markSent(sent, now);
    await outbox.renewLeases([sent, retried], future(59));
    await outbox.scheduleRetry(retried, future(58), 'x'.repeat(3000));
    await outbox.markFailed(failed, 'gave up');
    const rows = await ctx.sql<{
      uuid: string;
      status: string;
      available_at: Date;
      last_error: string | null;
    }>(
      `SELECT uuid::text AS uuid, status, available_at, last_error FROM outbox
        WHERE kind = $1 ORDER BY created_at`,
      [mine],
    );
    expect(rows.map((row) => [row.uuid, row.status])).toEqual([
      [sent, 'sent'],
      [retried, 'pending'],
      [failed, 'failed'],
    ]);
    expect(new Date(rows[0].available_at)).toEqual(future(1));
    expect(new Date(rows[1].available_at)).toEqual(future(58));
    expect(rows[1].last_error).toHaveLength(2000);
    expect(rows[2].last_error).toBe('gave up');
  });

  it('marks rows delivered at once sent, each with its time, in fewer statements than rows', async () => {
    const mine = kind();
    const rows: string[] = [];
    for (let minute = 1; minute <= 12; minute += 1) rows.push(await enqueue(mine, minute));
    const spy = jest.spyOn(ctx.dataSource, 'query');
    await Promise.all(rows.map((uuid, i) => outbox.markSent(uuid, future(30 + i))));
    const statements = spy.mock.calls.length;
    spy.mockRestore();
    // The first goes alone; the rest wait for it and go together.
    expect(statements).toBe(2);
    const marked = await ctx.sql<{ uuid: string; status: string; sent_at: Date }>(
      `SELECT uuid::text AS uuid, status, sent_at FROM outbox WHERE kind = $1`,
      [mine],
    );
    const byUuid = new Map(marked.map((row) => [row.uuid, row]));
    rows.forEach((uuid, i) => {
      expect(byUuid.get(uuid)!.status).toBe('sent');
      expect(new Date(byUuid.get(uuid)!.sent_at)).toEqual(future(30 + i));
    });
  });

  it('counts due rows by kind with the oldest wait', async () => {
    const mine = kind();
    await enqueue(mine, 10);
    await enqueue(mine, 20);
    const due = (await outbox.dueByKind(now)).find((row) => row.kind === mine);
    expect(due).toEqual({ kind: mine, due: 2, oldestDueSeconds: 20 * 60 });
  });
});
