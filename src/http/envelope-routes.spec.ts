import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { HTTP_CODE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import express from 'express';
import request from 'supertest';
import { ApiResult } from './envelope';
import { EnvelopeExpressAdapter, envelopeRoutes, Message, RawResponse } from './envelope-routes';

@Controller('things')
class ThingsController {
  @Get()
  @Message('Things')
  list() {
    return [1, 2];
  }

  @Post()
  @HttpCode(201)
  async create() {
    return new ApiResult({ id: 7 }, 'Replayed', { replay: true }, 202, {
      'Idempotent-Replay': 'true',
    });
  }

  @Get('raw')
  @RawResponse()
  raw() {
    return 'bytes';
  }

  helper() {
    return 'not a route';
  }
}

/** What the adapter sends for `body`, through a real Express response. */
async function sent(body: unknown) {
  const app = express();
  app.get('/', (_req, res) => void new EnvelopeExpressAdapter().reply(res, body));
  const res = await request(app).get('/');
  return {
    status: res.status,
    replay: res.headers['idempotent-replay'],
    json: res.body as unknown,
  };
}

describe('envelopeRoutes', () => {
  const prototype = ThingsController.prototype;
  const original = { list: prototype.list, raw: prototype.raw, helper: prototype.helper };

  beforeAll(() => {
    envelopeRoutes([ThingsController]);
    envelopeRoutes([ThingsController]); // a second app in the same process
  });

  it('answers a route in the envelope with its message, once however often it is applied', async () => {
    const answer = await new ThingsController().list();
    expect(await sent(answer)).toEqual({
      status: 200,
      replay: undefined,
      json: { status: true, message: 'Things', data: [1, 2] },
    });
  });

  it('sends the message, meta, status and headers of an ApiResult', async () => {
    const answer = await new ThingsController().create();
    expect(await sent(answer)).toEqual({
      status: 202,
      replay: 'true',
      json: { status: true, message: 'Replayed', data: { id: 7 }, meta: { replay: true } },
    });
  });

  it('keeps the metadata routing and documentation read from the handler', () => {
    expect(prototype.list).not.toBe(original.list);
    expect(prototype.list.name).toBe('list');
    expect(Reflect.getMetadata(PATH_METADATA, prototype.list)).toBe('/');
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, prototype.create)).toBe(201);
  });

  it('leaves raw routes and methods that are not routes as they are', () => {
    expect(prototype.raw).toBe(original.raw);
    expect(prototype.helper).toBe(original.helper);
  });
});
