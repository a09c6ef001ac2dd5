import { Get, HttpCode } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorator';
import { ApiErrors } from '../http/api-docs';
import { ApiError } from '../http/api-error';
import { SpaceController } from '../http/url-space';
import { HealthRepository } from './health.repository';

/** A readiness probe that waits longer than this is answered "not ready". */
const READINESS_TIMEOUT_MS = 1500;

@ApiTags('health')
@Public()
@SpaceController('root', 'health')
export class HealthController {
  constructor(private readonly health: HealthRepository) {}

  /**
   * Liveness
   *
   * @remarks Answers 200 while the process runs; needs no key. For a load balancer's or
   * orchestrator's liveness probe.
   */
  @Get()
  @HttpCode(200)
  checkLiveness(): { status: string } {
    return { status: 'ok' };
  }

  /**
   * Readiness
   *
   * @remarks Answers 200 when the database answers, 503 SERVICE_UNAVAILABLE (with Retry-After)
   * while it cannot be reached; needs no key. For a readiness probe: take the replica out of
   * rotation while it fails.
   */
  @Get('ready')
  @ApiErrors(503)
  async checkReadiness(): Promise<{ status: string }> {
    // Refused, reset, or slower than 1.5 s: not ready, for the whole outage,
    // so a load balancer keeps traffic away; the pool reconnects by itself.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('readiness probe timed out')),
        READINESS_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([this.health.ping(), timeout]);
    } catch {
      throw ApiError.serviceUnavailable();
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ready' };
  }
}
