import { Type } from '@nestjs/common';
import { DiscoveryService, NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AppConfig } from './config/config';
import { EXTRA_DATA_DOCUMENTS } from './entity';
import { answerParserErrors } from './http/client-error';
import { EnvelopeExpressAdapter, envelopeRoutes } from './http/envelope-routes';
import { installHttpPipeline } from './http/http-setup';
import { applyUrlSpaces } from './http/url-space';
import { recordHttpMetrics } from './metrics/http-metrics.middleware';
import { OpenApiParts } from './openapi/extra-data-schemas';
import { mountSwagger } from './openapi/openapi';

/** What the modules add to the OpenAPI document: the typed extra_data of each entity type. */
export const OPENAPI_PARTS: OpenApiParts = { extraData: EXTRA_DATA_DOCUMENTS };

/**
 * Builds the whole service for this configuration, initialised but not
 * listening: main.ts, the tests and the OpenAPI writer all start here.
 */
export async function createApp(
  config: AppConfig,
  options: { extraModules?: Type<unknown>[] } = {},
): Promise<NestExpressApplication> {
  applyUrlSpaces(config.namespace);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, options.extraModules),
    new EnvelopeExpressAdapter(),
    {
      bodyParser: false,
      // Webhook signatures are checked over the raw body (req.rawBody).
      rawBody: true,
      bufferLogs: true,
      abortOnError: false,
    },
  );
  app.useLogger(app.get(Logger));
  // Before the routes are registered (app.init): every route but the raw ones answers in the envelope.
  envelopeRoutes(
    app
      .get(DiscoveryService)
      .getControllers()
      .map((wrapper) => wrapper.metatype as Type<unknown>),
  );
  app.use(recordHttpMetrics);
  installHttpPipeline(app, config);
  answerParserErrors(app.getHttpServer());
  mountSwagger(app, config, OPENAPI_PARTS);
  await app.init();
  return app;
}
