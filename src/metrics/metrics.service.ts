import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { register } from 'prom-client';
import { InjectConfig } from '../config/config.module';
import { AppConfig } from '../config/config';
import { ApiError } from '../http/api-error';
import { trackOutbox } from './metrics';
import { MetricsRepository } from './metrics.repository';

function sameSecret(a: string, b: string): boolean {
  // Hashing first gives equal lengths, so the comparison takes the same time whatever was sent.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

@Injectable()
export class MetricsService implements OnModuleInit, OnModuleDestroy {
  private untrack: (() => void) | undefined;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly repository: MetricsRepository,
  ) {}

  onModuleInit(): void {
    this.untrack = trackOutbox({ countOutboxRows: () => this.repository.countOutboxRows() });
  }

  onModuleDestroy(): void {
    this.untrack?.();
  }

  /**
   * The metrics text, if the caller may read it: with METRICS_TOKEN set only
   * with that Bearer token (401); without it open, except in production where
   * the endpoint does not exist (404).
   */
  async scrape(authorization: string | undefined): Promise<{ contentType: string; body: string }> {
    const token = this.config.metricsToken;
    if (token === undefined) {
      if (this.config.nodeEnv === 'production') throw ApiError.notFound('Not found.');
    } else {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match || !sameSecret(match[1], token)) {
        throw new ApiError(401, 'UNAUTHENTICATED', 'The metrics token is missing or wrong.');
      }
    }
    return { contentType: register.contentType, body: await register.metrics() };
  }
}
