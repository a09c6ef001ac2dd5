import { Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiParam,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import { raw, Request, Response } from 'express';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiError } from '../http/api-error';
import { ApiResult } from '../http/envelope';
import { RawResponse } from '../http/envelope-routes';
import { refuseDeepJson } from '../http/input-rules';
import { SpaceController } from '../http/url-space';
import { ImportCountsDto, ImportMenuQueryDto } from './dto/menu-transfer.dto';
import { IMPORT_BODY_LIMIT_BYTES } from './menu-transfer';
import { ParsedImport, parseJsonImport } from './menu-import';
import { parseCsvImport } from './menu-import-csv';
import { ImportCounts, MenuTransferService } from './menu-transfer.service';

/** The import's body, read here with its own limit (the JSON parser of other routes stops at 1 MiB). */
const readImportBody = raw({ type: () => true, limit: IMPORT_BODY_LIMIT_BYTES, inflate: true });

function bodyOf(req: Request, res: Response): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    readImportBody(req, res, (error?: unknown) => {
      if (!error) {
        resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
        return;
      }
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') {
        reject(
          new ApiError(
            413,
            'PAYLOAD_TOO_LARGE',
            `An import is at most ${IMPORT_BODY_LIMIT_BYTES / 1024 / 1024} MB.`,
          ),
        );
      } else {
        reject(ApiError.badRequest('The body could not be read.'));
      }
    });
  });
}

/** The file by its Content-Type: JSON or CSV; anything else is 415. */
async function parsedImport(req: Request, res: Response): Promise<ParsedImport> {
  const json = req.is('application/json');
  const csv = req.is('text/csv');
  if (!json && !csv) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'An import is application/json or text/csv.');
  }
  const body = await bodyOf(req, res);
  if (csv) return parseCsvImport(body.toString('utf8'));
  let document: unknown;
  try {
    refuseDeepJson(body);
    document = JSON.parse(body.toString('utf8'));
  } catch {
    throw ApiError.badRequest('The body is not valid JSON.');
  }
  return parseJsonImport(document);
}

/**
 * A menu as a file and back: export as JSON or CSV, import either. Owners
 * and managers only (staff are refused with 403).
 */
@ApiTags('entities')
@SpaceController('core', 'menus/:menu_uuid')
@ApiParam({ name: 'menu_uuid', format: 'uuid', description: 'The menu.' })
export class MenuTransferController {
  constructor(private readonly transfers: MenuTransferService) {}

  /**
   * A menu as a JSON document.
   *
   * @remarks The bare document (no envelope), sent as an attachment: `{format, version, menu,
   * items}`, the menu's settings and every live item (enabled or not) with its title,
   * description, status and whole `extra_data` (prices, option groups, translations, allergens,
   * stock settings), each with its `external_id`: the one it was imported with, else its uuid.
   * Importing it into the same menu changes nothing.
   */
  @Get('export.json')
  @Auth()
  @RawResponse()
  @ApiProduces('application/json')
  @ApiOkResponse({ description: 'The menu document', schema: { type: 'object' } })
  @ApiErrors(403, 404)
  async exportMenuJson(
    @CurrentUser() user: AuthUser,
    @Param('menu_uuid') menuUuid: string,
    @Res() res: Response,
  ): Promise<void> {
    const document = await this.transfers.exportMenuJson(user, menuUuid);
    res
      .status(200)
      .set('Content-Type', 'application/json; charset=utf-8')
      .set('Content-Disposition', `attachment; filename="menu-${menuUuid}.json"`)
      .send(JSON.stringify(document));
  }

  /**
   * A menu as CSV.
   *
   * @remarks RFC 4180, UTF-8, a header row, sent as an attachment: one row per item and one
   * more per option, with the columns external_id, parent_external_id, kind (item or option),
   * category, title_name, description, unit_price_amount (the price_delta of an option),
   * option_group, available, sort_position, minimum_quantity_per_order,
   * maximum_quantity_per_order, allergens, may_contain, dietary (lists `;`-separated), then
   * `title_name.<locale>` and `description.<locale>` for each language but the default. An
   * option's external_id is `<item external_id>:<group key>:<option key>`. A cell beginning
   * with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`.
   */
  @Get('export.csv')
  @Auth()
  @RawResponse()
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'The CSV file', schema: { type: 'string' } })
  @ApiErrors(403, 404)
  async exportMenuCsv(
    @CurrentUser() user: AuthUser,
    @Param('menu_uuid') menuUuid: string,
    @Res() res: Response,
  ): Promise<void> {
    const text = await this.transfers.exportMenuCsv(user, menuUuid);
    res
      .status(200)
      .set('Content-Type', 'text/csv; charset=utf-8')
      .set('Content-Disposition', `attachment; filename="menu-${menuUuid}.csv"`)
      .send(text);
  }

  /**
   * Import items into a menu from JSON or CSV.
   *
   * @remarks The export's JSON (`Content-Type: application/json`) or CSV (`text/csv`), at most
   * 5 MB (413 beyond) and 2,000 items. Rows match the menu's live items by `external_id` only;
   * the others are created. Every row is held to the rules of the entity routes as if it were
   * sent alone. In CSV, a column left out leaves that field as it is and an empty cell clears
   * it; an item's option rows replace the options of the groups they name. With `prune=true`
   * the live items the file does not name go to the trash (restorable). Any fault is 422
   * `IMPORT_FAILED` whose details list every one as `{row, column, message}` (row: the CSV line,
   * the header being 1; for JSON, row null and a JSON pointer in column), and nothing is
   * written; `dry_run=true` writes nothing in any case.
   */
  @Post('import')
  @HttpCode(200)
  @Auth()
  @ApiConsumes('application/json', 'text/csv')
  @ApiBody({
    description: 'The export of a menu as JSON, or its CSV.',
    schema: { oneOf: [{ type: 'object' }, { type: 'string' }] },
    examples: {
      json: {
        summary: 'JSON',
        value: {
          items: [
            {
              external_id: 'jollof',
              title_name: 'Jollof rice',
              status: 'enabled',
              extra_data: {
                category: 'Mains',
                unit_price_amount: '3500.00',
                minimum_quantity_per_order: 1,
                maximum_quantity_per_order: 10,
                allergens: ['celery'],
                translations: { fr: { title_name: 'Riz jollof' } },
              },
            },
          ],
        },
      },
      csv: {
        summary: 'CSV',
        value:
          'external_id,kind,title_name,unit_price_amount,minimum_quantity_per_order,' +
          'maximum_quantity_per_order,allergens\r\njollof,item,Jollof rice,3500.00,1,10,celery\r\n',
      },
    },
  })
  @ApiEnvelope(ImportCountsDto)
  @ApiErrors(400, 403, 404, 413, 415, 422)
  async importMenu(
    @CurrentUser() user: AuthUser,
    @Param('menu_uuid') menuUuid: string,
    @Query() query: ImportMenuQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ApiResult<ImportCounts>> {
    const parsed = await parsedImport(req, res);
    const counts = await this.transfers.importMenu(user, menuUuid, parsed, {
      dryRun: query.dry_run === 'true',
      prune: query.prune === 'true',
    });
    return new ApiResult(counts, query.dry_run === 'true' ? 'Import checked' : 'Menu imported');
  }
}
