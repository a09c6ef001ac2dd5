import { Get, Headers, Res } from '@nestjs/common';
import { ApiHeader, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { Public } from '../auth/auth.decorator';
import { ApiErrors } from '../http/api-docs';
import { RawResponse } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { MetricsService } from './metrics.service';

// R40: metrics.
@ApiTags('operations')
@SpaceController('root', 'metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  /**
   * Prometheus metrics
   *
   * @remarks The service's metrics in the Prometheus text format: process and
   * Node.js metrics, `http_request_duration_seconds` by method, route template
   * and status, `orders_placed_total`, `outbox_rows` by state (pending,
   * failed), `sse_streams_open`, and the payment and webhook delivery counters.
   * When `METRICS_TOKEN` is set the scrape must send
   * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise). Without it the
   * endpoint is open outside production and answers 404 in production. No API
   * key is needed.
   */
  @Get()
  @Public()
  @RawResponse()
  @ApiSecurity('metrics_token')
  @ApiHeader({ name: 'Authorization', required: false, description: '`Bearer <METRICS_TOKEN>`' })
  @ApiProduces('text/plain')
  @ApiResponse({
    status: 200,
    description: 'Prometheus text exposition format',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @ApiErrors(401, 404)
  async scrapeMetrics(
    @Headers('authorization') authorization: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const scrape = await this.metrics.scrape(authorization);
    res.status(200).type(scrape.contentType).send(scrape.body);
  }
}
