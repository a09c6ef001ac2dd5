import { Get, Param, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { Public } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message, RawResponse } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { UploadedFileDto } from './dto/uploaded-file.dto';
import { LocalFileService, PathParam } from './local-file.service';
import { LOCAL_FILES_PATH } from './storage/local-storage.driver';
import { ALLOWED_UPLOAD_TYPES } from './upload-rules';

const KEY_PARAM = {
  name: 'path',
  description: 'The object key: `<user uuid>/<directory>/<random>-<name>`',
  type: String,
};

/** The local storage driver's routes (STORAGE_DRIVER=local); 404 with s3. */
@ApiTags('files')
@SpaceController('root', LOCAL_FILES_PATH)
export class LocalFileController {
  constructor(private readonly local: LocalFileService) {}

  /**
   * Upload a file to a signed URL
   *
   * @remarks The upload URL of the local storage driver: the file's bytes as the body, with the
   * Content-Type it was issued for. Needs no key: the signature in the URL is the permission; it
   * expires, and each URL takes one upload (409 for a second). A wrong signature or an expired URL
   * is 403, a wrong type 400, a body over the size 413.
   */
  @Put('upload/*path')
  @Public()
  @Message('File uploaded')
  @ApiParam(KEY_PARAM)
  @ApiConsumes(...ALLOWED_UPLOAD_TYPES)
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiEnvelope(UploadedFileDto)
  @ApiErrors(400, 403, 404, 409, 413)
  uploadLocalFile(@Param('path') path: PathParam, @Req() req: Request): Promise<UploadedFileDto> {
    return this.local.receiveUpload(path, req);
  }

  /**
   * Read a stored file
   *
   * @remarks A file stored by the local driver, with the type it was uploaded as, `X-Content-Type-
   * Options: nosniff` and a year of caching. No key needed.
   */
  @Get('*path')
  @Public()
  @RawResponse()
  @ApiParam(KEY_PARAM)
  @ApiResponse({
    status: 200,
    description: 'The file, with the type it was uploaded as',
    content: Object.fromEntries(
      ALLOWED_UPLOAD_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    ),
  })
  @ApiErrors(404)
  readLocalFile(@Param('path') path: PathParam, @Res() res: Response): Promise<void> {
    return this.local.sendFile(path, res);
  }
}
