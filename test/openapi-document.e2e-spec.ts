import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTITY_TYPE_DEFINITIONS } from '../src/entity/entity-types';
import { EXTRA_DATA_DOCUMENTS } from '../src/entity';
import { OPERATION_FLOW } from '../src/openapi/flow-order';

/**
 * The committed OpenAPI document (CI checks that it is what the code
 * generates) documents every operation the way a newcomer needs it.
 */
const document = JSON.parse(
  readFileSync(join(__dirname, '..', 'openapi', 'openapi.json'), 'utf8'),
) as Record<string, any>;

const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(
  ([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
);

// R41: self-documentation.
describe('the OpenAPI document', () => {
  it('has a summary, a description, a tag and a unique id for every operation', () => {
    const missing = operations
      .filter(
        ({ operation }) => !operation.summary || !operation.description || !operation.tags?.length,
      )
      .map(({ name }) => name);
    expect(missing).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has an example for every JSON request body', () => {
    const schemas = document.components.schemas as Record<string, any>;
    const hasPropertyExamples = (ref: string | undefined) => {
      const schema = ref ? schemas[ref.split('/').pop()!] : undefined;
      const properties = Object.values((schema?.properties ?? {}) as Record<string, any>);
      return (
        properties.length > 0 && properties.every((property) => property.example !== undefined)
      );
    };
    const missing = operations
      .filter(({ operation }) => {
        const json = operation.requestBody?.content?.['application/json'];
        if (!json) return false;
        return !json.example && !json.examples && !hasPropertyExamples(json.schema?.$ref);
      })
      .map(({ name }) => name);
    expect(missing).toEqual([]);
  });

  it('declares security on every operation, empty on the open routes', () => {
    expect(
      operations.filter(({ operation }) => !operation.security).map(({ name }) => name),
    ).toEqual([]);
    const health = document.paths['/health'].get;
    expect(health.security).toEqual([]);
  });

  it('lists tags in the order of the flow, accounts first, each described', () => {
    const names = (document.tags as Array<{ name: string; description?: string }>).map(
      (tag) => tag.name,
    );
    expect(names.slice(0, 4)).toEqual(['accounts', 'entities', 'storefront', 'orders']);
    expect(names.indexOf('files')).toBeLessThan(names.indexOf('health'));
    for (const tag of document.tags) expect(tag.description).toEqual(expect.any(String));
  });

  it('lists operations in the order of the flow, each with a place in it', () => {
    const ids = operations.map(({ operation }) => operation.operationId as string);
    expect(ids.filter((id) => !OPERATION_FLOW.includes(id))).toEqual([]);
    const accounts = operations
      .filter(({ operation }) => operation.tags.includes('accounts'))
      .map(({ operation }) => operation.operationId as string);
    expect(accounts.slice(0, 2)).toEqual(['registerUser', 'loginUser']);
    expect(accounts.slice(-2)).toEqual(['requestPasswordChange', 'changePassword']);
    // Each path comes at the place of its earliest operation.
    const ranks = Object.values(document.paths as Record<string, Record<string, any>>).map((item) =>
      Math.min(
        ...Object.values(item)
          .filter((operation) => operation?.operationId)
          .map((operation) => OPERATION_FLOW.indexOf(operation.operationId)),
      ),
    );
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('names its servers and license', () => {
    expect(document.servers.length).toBeGreaterThan(0);
    expect(document.info.license.name).toEqual(expect.any(String));
  });

  it('types the extra_data of each entity type with every key its rules check', () => {
    for (const definition of ENTITY_TYPE_DEFINITIONS) {
      const entry = EXTRA_DATA_DOCUMENTS.find((schema) => schema.suffix === definition.suffix);
      expect(entry).toBeDefined();
      const documented = document.components.schemas[entry!.name];
      expect(documented.additionalProperties).toBe(true);
      expect(Object.keys(documented.properties).sort()).toEqual(
        Object.keys(definition.extraData.fields).sort(),
      );
      expect(documented.required ?? []).toEqual(definition.extraData.required ?? []);
      // Each key is described by the very rule that checks it.
      for (const [key, rule] of Object.entries(definition.extraData.fields)) {
        expect([definition.suffix, key, documented.properties[key]]).toEqual([
          definition.suffix,
          key,
          rule.schema,
        ]);
      }
    }
    const body = document.components.schemas.EntityBodyDto.properties.extra_data;
    expect(body.anyOf.map((ref: { $ref: string }) => ref.$ref)).toEqual(
      EXTRA_DATA_DOCUMENTS.map(({ name }) => `#/components/schemas/${name}`),
    );
  });

  it('types whole numbers as integers', () => {
    const schemas = document.components.schemas as Record<string, any>;
    expect(schemas.CartItemDto.properties.quantity.type).toBe('integer');
    expect(schemas.PageMetaDto.properties.total.type).toBe('integer');
    expect(schemas.LoginResultDto.properties.expires_in.type).toBe('integer');
  });
});
