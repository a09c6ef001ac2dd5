import { Get } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorator';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiEnvelope } from '../http/api-docs';
import { Message } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';

export class ServiceIndexDto {
  @ApiProperty({ example: 'Menu and Ordering Service' })
  name!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '/docs',
    description: 'Swagger UI; null when DOCS_ENABLED=false.',
  })
  docs!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '/docs/openapi.json',
    description: 'The OpenAPI document; null when DOCS_ENABLED=false.',
  })
  openapi!: string | null;

  @ApiProperty({ example: '/health' })
  health!: string;
}

@ApiTags('health')
@Public()
@SpaceController('root')
export class ServiceIndexController {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  /**
   * Where to start
   *
   * @remarks Names Swagger UI and the OpenAPI document, so that a browser or a curl pointed at
   * the service's address finds the documentation; needs no key.
   */
  @Get()
  @Message('Menu and Ordering Service')
  @ApiEnvelope(ServiceIndexDto)
  describeService(): ServiceIndexDto {
    const docs = this.config.docsEnabled;
    return {
      name: 'Menu and Ordering Service',
      docs: docs ? '/docs' : null,
      openapi: docs ? '/docs/openapi.json' : null,
      health: '/health',
    };
  }
}
