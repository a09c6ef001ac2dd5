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

  /** Liveness: the process answers. */
  @Get()
  @HttpCode(200)
  checkLiveness(): { status: string } {
    return { status: 'ok' };
  }

  /** Readiness: the database answers. */
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
