import { Body, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Response } from 'express';
import { ApiResult, successBody } from '../http/envelope';
import { RawResponse } from '../http/envelope.interceptor';
import { SpaceController } from '../http/url-space';
import { EntityBodyDto } from './dto/entity-body.dto';
import { EntityResponseDto } from './dto/entity-response.dto';
import { ListEntitiesQueryDto, RetrieveByMetaKeyQueryDto } from './dto/list-entities-query.dto';
import { EntityService } from './entity.service';

type Answer = Promise<ApiResult<EntityResponseDto>>;

/**
 * Sends an enveloped answer as UTF-8 bytes made once. Handed a string
 * (`res.json`), Express and Node encode it three times: to count its bytes
 * for Content-Length, to hash it for the ETag, and once more inside the
 * socket's writev. The headers and bytes sent are the same.
 */
function sendJson(res: Response, body: unknown): void {
  res
    .status(200)
    .set('Content-Type', 'application/json; charset=utf-8')
    .send(Buffer.from(JSON.stringify(body)));
}

/** API.md §4: one controller for every entity type of the registry. */
@ApiTags('entities')
@ApiParam({
  name: 'type',
  description:
    'The entity type: `{ns}_business`, `{ns}_business_menu` or `{ns}_business_menu_item` ({ns} is the API namespace, default `svc`). Any other value is 404.',
  example: 'svc_business',
})
@SpaceController('core', 'smart-meta-manager/entity')
export class EntityController {
  constructor(private readonly entities: EntityService) {}

  /** Creates a record owned by the caller; a repeated request_id answers the first record with 200 (D13). */
  @Post(':type')
  @Auth()
  @ApiEnvelope(EntityResponseDto, { status: 201, description: 'Created' })
  @ApiEnvelope(EntityResponseDto, { description: 'Already created with this request_id (D13)' })
  @ApiErrors(400, 403, 404, 409)
  createEntity(
    @CurrentUser() user: AuthUser,
    @Param('type') type: string,
    @Body() body: EntityBodyDto,
  ): Answer {
    return this.entities.createEntity(user, type, body);
  }

  /**
   * Lists records: public ones, plus the caller's own live records (enabled or
   * not) when a Bearer token is sent (D16). Paged; `meta` beside `data`.
   */
  @Get(':type')
  @Auth({ bearer: 'optional' })
  @RawResponse()
  @ApiEnvelope(EntityResponseDto, { isArray: true, paged: true })
  @ApiErrors(400, 404)
  async listEntities(
    @CurrentUser() user: AuthUser | undefined,
    @Param('type') type: string,
    @Query() query: ListEntitiesQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    const result = await this.entities.listEntities(user, type, query);
    sendJson(res, successBody(result.data, result.message!, result.meta));
  }

  /** One public record by meta_key, ignoring case (D11). */
  @Get(':type/retrieve-by-meta-key/:meta_key')
  @ApiKeyOnly()
  @ApiEnvelope(EntityResponseDto)
  @ApiErrors(400, 404, 409)
  retrieveEntityByMetaKey(
    @Param('type') type: string,
    @Param('meta_key') metaKey: string,
    @Query() query: RetrieveByMetaKeyQueryDto,
  ): Answer {
    return this.entities.retrieveEntityByMetaKey(type, metaKey, query);
  }

  /** One record: a public one, or the caller's own (even in the trash). */
  @Get(':type/:uuid')
  @Auth({ bearer: 'optional' })
  @ApiEnvelope(EntityResponseDto)
  @ApiErrors(404)
  getEntity(
    @CurrentUser() user: AuthUser | undefined,
    @Param('type') type: string,
    @Param('uuid') uuid: string,
  ): Answer {
    return this.entities.getEntity(user, type, uuid);
  }

  /** Replaces the fields sent; extra_data is replaced whole. Owner only; not while in the trash (422). */
  @Put(':type/:uuid')
  @Auth()
  @ApiEnvelope(EntityResponseDto)
  @ApiErrors(400, 403, 404, 409, 422)
  updateEntity(
    @CurrentUser() user: AuthUser,
    @Param('type') type: string,
    @Param('uuid') uuid: string,
    @Body() body: EntityBodyDto,
  ): Answer {
    return this.entities.updateEntity(user, type, uuid, body);
  }

  /** Moves the caller's record to the trash (idempotent). */
  @Post(':type/trash/:uuid')
  @HttpCode(200)
  @Auth()
  @ApiEnvelope(EntityResponseDto)
  @ApiErrors(403, 404)
  trashEntity(
    @CurrentUser() user: AuthUser,
    @Param('type') type: string,
    @Param('uuid') uuid: string,
  ): Answer {
    return this.entities.trashEntity(user, type, uuid);
  }

  /** The same as POST …/trash/{uuid}: the owner client has used DELETE. */
  @Delete(':type/trash/:uuid')
  @Auth()
  @ApiEnvelope(EntityResponseDto)
  @ApiErrors(403, 404)
  trashEntityByDelete(
    @CurrentUser() user: AuthUser,
    @Param('type') type: string,
    @Param('uuid') uuid: string,
  ): Answer {
    return this.entities.trashEntity(user, type, uuid);
  }

  /** Takes the caller's record back out of the trash (D12; idempotent). */
  @Post(':type/restore/:uuid')
  @HttpCode(200)
  @Auth()
  @ApiEnvelope(EntityResponseDto)
  @ApiErrors(403, 404, 409)
  restoreEntity(
    @CurrentUser() user: AuthUser,
    @Param('type') type: string,
    @Param('uuid') uuid: string,
  ): Answer {
    return this.entities.restoreEntity(user, type, uuid);
  }
}
