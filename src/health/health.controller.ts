import { Get, HttpCode } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorator';
import { ApiErrors } from '../http/api-docs';
import { ApiError } from '../http/api-error';
import { SpaceController } from '../http/url-space';

@ApiTags('health')
@Public()
@SpaceController('root', 'health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

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
   * @remarks Answers 200 when the database answers, 503 while it cannot be reached; needs no key.
   * For a readiness probe: take the replica out of rotation while it fails.
   */
  @Get('ready')
  @ApiErrors(503)
  async checkReadiness(): Promise<{ status: string }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new ApiError(503, 'INTERNAL', 'The database is not reachable.');
    }
    return { status: 'ready' };
  }
}
