import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message } from '../http/envelope.interceptor';
import { SpaceController } from '../http/url-space';
import { CreateUploadUrlsDto } from './dto/create-upload-urls.dto';
import { UploadUrlDto } from './dto/upload-url.dto';
import { FileService } from './file.service';

@ApiTags('files')
@SpaceController('files')
export class FileController {
  constructor(private readonly files: FileService) {}

  /**
   * Presigned upload URLs, one per file and in order (D26, D27). PUT each
   * file to its `upload_url` with the given headers, then store `file_url`
   * in `entity_featured_url`.
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

  /** The same as `createUploadUrls`, at the path existing clients call (D26). */
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
