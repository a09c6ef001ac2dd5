import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../config/config';
import { OpenApiParts } from './extra-data-schemas';
import { orderPaths } from './flow-order';
import { REQUEST_EXAMPLES } from './request-examples';

/** Tags in the order a client meets them, with what each covers; unknown tags follow. */
const TAGS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'accounts',
    description:
      'Sign up, log in (a Bearer token for the owner’s calls), password reset and change, email ' +
      'verification, and the caller’s own profile.',
  },
  {
    name: 'entities',
    description:
      'Businesses, their menus and the menus’ items: one set of operations for the three entity ' +
      'types, each with its own `extra_data` (see BusinessExtraData, MenuExtraData, ItemExtraData).',
  },
  {
    name: 'storefront',
    description: 'What guests see: a public business, menu and items in one call, and its QR code.',
  },
  {
    name: 'orders',
    description:
      'Guests place orders with the API key only; owners list, read and move them through their ' +
      'states, and follow them live.',
  },
  {
    name: 'availability',
    description:
      'The kitchen’s switch: open, busy (orders take longer) or paused (no order for now), ' +
      'for the owner, managers and staff.',
  },
  { name: 'payments', description: 'Collecting and refunding the money of an order.' },
  {
    name: 'notifications',
    description: 'The owner’s inbox of notifications and the push settings of their devices.',
  },
  {
    name: 'webhooks',
    description: 'Owners’ endpoints that receive signed order events.',
  },
  {
    name: 'guest messages',
    description:
      'WhatsApp and SMS messages to guests who consented: the guest’s stop, the owner’s message log and WhatsApp’s status webhook.',
  },
  {
    name: 'teams',
    description:
      'The people who work for a business: the owner invites managers and staff by email; each ' +
      'logs in with an account of their own and may do what their role allows on that business.',
  },
  {
    name: 'reports',
    description:
      'What a business sold, when and for how much, in its own local days, and every order of a ' +
      'period as CSV; for the owner and managers.',
  },
  {
    name: 'discounts',
    description:
      'A business’s discount codes, managed by its owner and managers; guests use one with the ' +
      'order’s `discount_code`.',
  },
  {
    name: 'tabs',
    description:
      'A table’s tab: rounds ordered on one bill, read by the team and by the party with its tab ' +
      'token, split equally, by items or by amounts, each share paid on its own; the tab closes ' +
      'when the last share is paid.',
  },
  {
    name: 'stock',
    description:
      'Portions of items that run out: the day’s counts, restocks and recounts with a reason, ' +
      'and the ledger of every change; for the owner, managers and staff.',
  },
  {
    name: 'kitchen',
    description:
      'The kitchen’s tickets: one per station for each accepted order, moved line by line by the ' +
      'team, streamed live, and printed as dockets for 58 and 80 mm receipt printers.',
  },
  {
    name: 'files',
    description: 'Upload URLs for images, the local driver’s signed upload and the stored files.',
  },
  {
    name: 'health',
    description:
      'Where the documentation is (`GET /`), liveness and readiness probes; no key needed.',
  },
  {
    name: 'operations',
    description: 'Prometheus metrics for the operator.',
  },
];

type JsonObject = Record<string, any>;

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

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function operationsOf(document: OpenAPIObject): JsonObject[] {
  return Object.values(document.paths).flatMap((item) =>
    HTTP_METHODS.map((method) => (item as JsonObject)[method] as JsonObject | undefined).filter(
      (operation): operation is JsonObject => operation !== undefined,
    ),
  );
}

/**
 * What the decorators cannot say: tag order and texts, the open routes'
 * empty security, an example for each JSON request body, and the typed
 * `extra_data` of each entity type.
 */
function completeDocument(document: OpenAPIObject, parts: OpenApiParts): void {
  const used = new Set<string>();
  for (const operation of operationsOf(document)) {
    for (const tag of (operation.tags as string[] | undefined) ?? []) used.add(tag);
    // No security requirement means the route is open; say so rather than inherit nothing.
    operation.security ??= [];
    const json = operation.requestBody?.content?.['application/json'] as JsonObject | undefined;
    const examples = REQUEST_EXAMPLES[operation.operationId as string];
    if (json && examples && !json.example && !json.examples) json.examples = examples;
  }
  const known = TAGS.filter((tag) => used.has(tag.name));
  const rest = [...used].filter((name) => !TAGS.some((tag) => tag.name === name)).sort();
  document.tags = [...known, ...rest.map((name) => ({ name }))];

  const schemas = (document.components!.schemas ??= {}) as JsonObject;
  for (const { name, schema } of parts.extraData) schemas[name] = schema;
  const typedExtraData = (description: string) => ({
    description,
    type: 'object',
    nullable: true,
    anyOf: parts.extraData.map(({ name }) => ({ $ref: `#/components/schemas/${name}` })),
  });
  const body = schemas.EntityBodyDto as JsonObject | undefined;
  if (body?.properties?.extra_data) {
    body.properties.extra_data = typedExtraData(
      'Data of the entity type in the path: BusinessExtraData, MenuExtraData or ItemExtraData. ' +
        'Integers sent as strings are stored as integers and prices as decimal strings; unknown ' +
        'keys are kept; at most 64 KiB of JSON. On update it replaces the stored extra_data whole.',
    );
  }
  const answer = schemas.EntityResponseDto as JsonObject | undefined;
  if (answer?.properties?.extra_data) {
    answer.properties.extra_data = typedExtraData('The record’s data, as normalised when stored.');
  }
}

// R41: self-documentation.
/**
 * The contract as the code states it: keys sorted and paths in the order of
 * the flow, so the committed file diffs cleanly and Swagger UI lists each
 * tag's operations in the order a client calls them.
 */
export function buildOpenApiDocument(app: INestApplication, parts: OpenApiParts): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Menu and Ordering Service')
    .setDescription(
      'Owners sign up, create a business with menus and items and share its storefront; guests ' +
        'place orders without an account; owners follow and update them. Every answer uses the ' +
        'envelope `{status, message, data}` (lists add `meta` with paging); errors carry ' +
        '`error.code` and `error.details`. Every call except health, docs, metrics and file reads ' +
        'sends an API key in `x-api-key`; the owner’s calls also send `Authorization: Bearer ' +
        '<access_token>` from login. The repository’s `docs/` folder walks through the whole flow. ' +
        'Request bodies may be sent in Content-Encoding gzip, deflate or br (any other is 415 ' +
        'UNSUPPORTED_MEDIA_TYPE); JSON nested deeper than 32 levels is 400 BAD_REQUEST; text ' +
        'holding U+0000 or a lone UTF-16 surrogate is 400 VALIDATION_FAILED naming the field. ' +
        'While the database is unreachable, any operation that needs it answers 503 ' +
        'SERVICE_UNAVAILABLE with Retry-After.',
    )
    .setVersion('1.0.0')
    .setLicense('Proprietary: all rights reserved', '')
    .addServer('/', 'The service that serves this document')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'api_key')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'The METRICS_TOKEN setting' },
      'metrics_token',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
  completeDocument(document, parts);
  const sorted = sortKeys(document) as OpenAPIObject;
  return { ...sorted, paths: orderPaths(sorted.paths as Record<string, JsonObject>) };
}

/**
 * The document this instance serves: the committed one, plus, while the
 * development key is in use (never in production), that key named where
 * Swagger UI shows it.
 */
export function servedOpenApiDocument(
  app: INestApplication,
  config: AppConfig,
  parts: OpenApiParts,
): OpenAPIObject {
  const document = buildOpenApiDocument(app, parts);
  if (!config.usingDevelopmentApiKey) return document;
  const key = config.apiKeys[0];
  const note =
    `This instance runs without API_KEYS and accepts the development key \`${key}\`: choose ` +
    'Authorize, enter it under api_key, then log in (loginUser) and enter the access_token ' +
    'under bearer for the owner’s operations.';
  const schemes = document.components!.securitySchemes as JsonObject;
  return {
    ...document,
    info: { ...document.info, description: `${document.info.description}\n\n${note}` },
    components: {
      ...document.components,
      securitySchemes: {
        ...schemes,
        api_key: { ...schemes.api_key, description: `Development key: ${key}` },
      },
    },
  };
}

export const OPENAPI_JSON_PATH = '/docs/openapi.json';

/**
 * Swagger UI at /docs, the document at /docs/openapi.json and .yaml (no key
 * needed); nothing at all when DOCS_ENABLED=false. The UI fetches the JSON
 * document rather than carrying it inline: @nestjs/swagger inlines with
 * String.replace, which would read `$` sequences in the document's text as
 * replacement patterns and break the page's script.
 */
export function mountSwagger(app: INestApplication, config: AppConfig, parts: OpenApiParts): void {
  if (!config.docsEnabled) return;
  SwaggerModule.setup('docs', app, () => servedOpenApiDocument(app, config, parts), {
    ui: false,
    raw: ['json', 'yaml'],
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
  // The UI's own copy of the document is empty; it loads the served one by URL.
  const empty = {} as OpenAPIObject;
  SwaggerModule.setup('docs', app, empty, {
    raw: false,
    customSiteTitle: 'Menu and Ordering Service API',
    swaggerOptions: { url: OPENAPI_JSON_PATH, displayRequestDuration: true },
  });
}
