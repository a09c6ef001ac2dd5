import { Body, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Request, Response } from 'express';
import { ApiResult } from '../http/envelope';
import { RawResponse } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { EntityBodyDto } from './dto/entity-body.dto';
import { EntityResponseDto } from './dto/entity-response.dto';
import { ListEntitiesQueryDto, RetrieveByMetaKeyQueryDto } from './dto/list-entities-query.dto';
import { EntityListService } from './entity-list.service';
import { EntityService } from './entity.service';

type Answer = Promise<ApiResult<EntityResponseDto>>;

/**
 * Sends an enveloped answer as UTF-8 bytes made once. Handed a string
 * (`res.json`), Express and Node encode it three times: to count its bytes
 * for Content-Length, to hash it for the ETag, and once more inside the
 * socket's writev. The headers and bytes sent are the same.
 */
function sendJson(res: Response, body: Buffer): void {
  res.status(200).set('Content-Type', 'application/json; charset=utf-8').send(body);
}

/** One controller for every entity type of the registry. */
@ApiTags('entities')
@ApiParam({
  name: 'type',
  description:
    'The entity type: `{ns}_business`, `{ns}_business_menu` or `{ns}_business_menu_item` ({ns} is the API namespace, default `svc`). Any other value is 404.',
  example: 'svc_business',
})
@SpaceController('core', 'smart-meta-manager/entity')
export class EntityController {
  constructor(
    private readonly entities: EntityService,
    private readonly lists: EntityListService,
  ) {}

  /**
   * Create a business, menu or item
   *
   * @remarks Creates a record of the type in the path, owned by the caller. A menu's parent must
   * be one of the caller's businesses, an item's one of the caller's menus (missing parent 404,
   * someone else's 403, wrong parent type 400). `meta_key` is required for a business and a menu:
   * unique among live businesses ignoring case, and among the live menus of one business (409).
   * `extra_data` is checked per type (see the BusinessExtraData, MenuExtraData and ItemExtraData
   * schemas); unknown keys are kept, at most 64 KiB (a menu's delivery zones have limits of their
   * own and are not counted). Sending the same `request_id` again for the
   * same type answers the first record with 200 instead of creating a second.
   */
  @Post(':type')
  @Auth()
  @ApiEnvelope(EntityResponseDto, { status: 201, description: 'Created' })
  @ApiEnvelope(EntityResponseDto, {
    description: 'Already created with this request_id: the first record',
  })
  // R13: idempotent create.
  @ApiErrors(400, 403, 404, 409)
  createEntity(
    @CurrentUser() user: AuthUser,
    @Param('type') type: string,
    @Body() body: EntityBodyDto,
  ): Answer {
    return this.entities.createEntity(user, type, body);
  }

  /**
   * List businesses, menus or items
   *
   * @remarks Live records of the type, paged (`page` from 1, `per_page` default 20; sizes above
   * 1000 are cut to 1000). Without a Bearer token, or with another user's, only enabled records
   * are listed; with the owner's token and `owned_by` = the caller, all the caller's records,
   * enabled or not. Without `owned_by`, the managers and staff of a business also see its
   * records, enabled or not (a member lists a business's menus and items by
   * `parent_entity_uuid`). Records in the trash, and menus and items under a trashed business or menu,
   * are never listed. Filters: `owned_by`, `parent_entity_type`, `parent_entity_uuid`, `status`,
   * `meta_key`, `slug`, `q`. `sort_by` is a column or `extra_data.<key>`; ties break on
   * `created_at`, then `uuid`. Every answer carries a weak `ETag` for its query and its
   * caller; a request whose `If-None-Match` names the current one is answered 304 with no
   * body. It changes with any write to a listed record, with a record that starts or stops
   * being listed (created, trashed, restored, deleted, hidden with its menu or business), and
   * with the caller. With `parent_entity_uuid` it also changes with any write to another child
   * of that parent (also one the caller does not see) and with a change of the parent's or its
   * business's status, trash or parent, even when the page stays the same.
   */
  @Get(':type')
  @Auth({ bearer: 'optional' })
  @RawResponse()
  @ApiEnvelope(EntityResponseDto, { isArray: true, paged: true })
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current ETag' })
  @ApiErrors(400, 404)
  async listEntities(
    @CurrentUser() user: AuthUser | undefined,
    @Param('type') type: string,
    @Query() query: ListEntitiesQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const reply = await this.lists.listEntities(user, type, query, req.headers['if-none-match']);
    res.set('ETag', reply.etag);
    if (reply.notModified) {
      res.status(304).end();
      return;
    }
    sendJson(res, reply.body);
  }

  /**
   * Find a public record by meta_key
   *
   * @remarks One public record of the type whose `meta_key` matches, ignoring case; a storefront
   * resolves its URL with it. 404 when there is none.
   */
  // R11: lookup by meta_key.
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

  /**
   * Read one business, menu or item
   *
   * @remarks A public record, or one of the caller's own (also disabled or in the trash). Anything
   * else is 404.
   */
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

  /**
   * Update a business, menu or item
   *
   * @remarks Same body as create. Fields sent replace the stored ones, fields left out keep
   * theirs, and `extra_data` is replaced whole. The owner of the business, or a member whose role
   * allows it: managers change menus and items and only `extra_data.accepting_orders` of the
   * business; staff change only `extra_data.available` of items and their options. Anyone else,
   * or a change beyond the role, is 403. `owned_by` stays the business owner's and `updated_by`
   * becomes the caller. A record in the trash is 422 until restored.
   */
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

  /**
   * Move a record to the trash
   *
   * @remarks Hides the caller's record (and, for a business or menu, everything under it) from
   * every public read. Trashing twice changes nothing. The owner, or a manager for menus and
   * items; anyone else is 403.
   */
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

  /**
   * Move a record to the trash (DELETE)
   *
   * @remarks The same as `POST .../trash/{uuid}`, for clients that send DELETE.
   */
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

  /**
   * Take a record out of the trash
   *
   * @remarks Restores the caller's record. Restoring a record that is not in the trash changes
   * nothing; a restore that would make two live records share a `meta_key` is 409.
   */
  // R12: restore.
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
