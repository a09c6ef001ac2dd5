import { Get, Module, Query } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiKeyOnly } from '../../src/auth/auth.decorator';
import { SpaceController } from '../../src/http/url-space';

/**
 * What a test does while the probe's transaction waits between two
 * statements: it is given the transaction's backend pid and returns once it
 * has cut that connection.
 */
export type InFlightHook = (backendPid: number) => Promise<void>;

let inFlight: InFlightHook | undefined;

/** Sets what the probe's transactions run between their statements; undefined for nothing. */
export function whileInTransaction(hook: InFlightHook | undefined): void {
  inFlight = hook;
}

/** Polls until TypeORM has noticed the dead connection and released the runner. */
async function untilReleased(manager: EntityManager): Promise<void> {
  while (!manager.queryRunner?.isReleased) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A route that holds a transaction open, lets the test kill its connection,
 * then goes on the way a service would: another statement, or a nested
 * transaction. The kill lands between statements, so what the request sees
 * is TypeORM's "query runner already released", not the driver's error.
 */
@SpaceController('core', 'probe')
class TransactionProbeController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('transaction')
  @ApiKeyOnly()
  async probeTransaction(@Query('then') then = 'query'): Promise<{ ok: true }> {
    return this.dataSource.transaction(async (manager) => {
      const [{ pid }] = (await manager.query('SELECT pg_backend_pid() AS pid')) as {
        pid: number;
      }[];
      if (inFlight) {
        await inFlight(Number(pid));
        await untilReleased(manager);
      }
      if (then === 'transaction') {
        await manager.transaction((inner) => inner.query('SELECT 1'));
      } else {
        await manager.query('SELECT 1');
      }
      return { ok: true as const };
    });
  }
}

@Module({ controllers: [TransactionProbeController] })
export class TransactionProbeModule {}
