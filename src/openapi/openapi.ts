import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** The contract as the code states it: sorted, so the committed file diffs cleanly. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Menu and Ordering Service')
    .setDescription(
      'Accounts, businesses, menus and items, guest orders and uploads. Every answer uses the envelope ' +
        '`{status, message, data}`; errors carry `error.code` and `error.details`. Request bodies may ' +
        'be sent in Content-Encoding gzip, deflate or br (any other is 415 UNSUPPORTED_MEDIA_TYPE); ' +
        'JSON nested deeper than 32 levels is 400 BAD_REQUEST; text holding U+0000 or a lone UTF-16 ' +
        'surrogate is 400 VALIDATION_FAILED naming the field. While the database is unreachable, any ' +
        'operation that needs it answers 503 SERVICE_UNAVAILABLE with Retry-After.',
    )
    .setVersion('1.0.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'api_key')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
  return sortKeys(document) as OpenAPIObject;
}

/** Swagger UI at /docs, the document at /docs/openapi.json (no key needed). */
export function mountSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    customSiteTitle: 'Menu and Ordering Service API',
  });
}
