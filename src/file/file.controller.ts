import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { CreateUploadUrlsDto } from './dto/create-upload-urls.dto';
import { UploadUrlDto } from './dto/upload-url.dto';
import { FileService } from './file.service';

@ApiTags('files')
@SpaceController('files')
export class FileController {
  constructor(private readonly files: FileService) {}

  /**
   * Get upload URLs for images
   *
   * @remarks One upload URL per file, in order (1-10 files). PUT each file to its `upload_url`
   * with the headers given, then store `file_url` in a record's `entity_featured_url`. Types: PNG,
   * JPEG, WebP, GIF; size 1 byte up to the configured limit (5 MiB by default). The object key
   * always lives under the caller's uuid: a `directory` naming another user is 403; `..` or a
   * leading `/` is 400. `expires_in` is clamped to 60-3600 seconds.
   */
  @Post('cloud/upload-url')
  @Auth()
  @HttpCode(200)
  @Message('Upload URLs created')
  @ApiEnvelope(UploadUrlDto, { isArray: true })
  @ApiErrors(400, 403)
  createUploadUrls(@CurrentUser() user: AuthUser, @Body() dto: CreateUploadUrlsDto) {
    return this.files.createUploadUrls(user, dto);
  }

  /**
   * Get upload URLs for images (alias)
   *
   * @remarks The same as `POST /cloud/upload-url`, at the path existing clients call.
   */
  // R26: upload url paths.
  @Post('aws/upload-url')
  @Auth()
  @HttpCode(200)
  @Message('Upload URLs created')
  @ApiEnvelope(UploadUrlDto, { isArray: true })
  @ApiErrors(400, 403)
  createUploadUrlsAws(@CurrentUser() user: AuthUser, @Body() dto: CreateUploadUrlsDto) {
    return this.files.createUploadUrls(user, dto);
  }
}
