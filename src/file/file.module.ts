import { Module, OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EntityModule, FeaturedUrlChecks } from '../entity';
import { FileController } from './file.controller';
import { FileService } from './file.service';
import { LocalFileController } from './local-file.controller';
import { LocalFileService } from './local-file.service';
import { LocalStorageDriver } from './storage/local-storage.driver';
import { STORAGE_DRIVER, StorageDriver } from './storage/storage-driver';

/** The S3 client library (and its dependencies, some megabytes) is loaded only when it is the driver. */
async function createStorageDriver(config: AppConfig, clock: Clock): Promise<StorageDriver> {
  if (config.storageDriver === 's3') {
    if (!config.s3) throw new Error('STORAGE_DRIVER=s3 without S3 settings');
    const { S3StorageDriver } = await import('./storage/s3-storage.driver');
    return new S3StorageDriver(config.s3);
  }
  return new LocalStorageDriver(config, clock);
}

/** Upload URLs and the two storage drivers (local disk, S3). */
@Module({
  imports: [EntityModule],
  controllers: [FileController, LocalFileController],
  providers: [
    { provide: STORAGE_DRIVER, useFactory: createStorageDriver, inject: [APP_CONFIG, Clock] },
    FileService,
    LocalFileService,
  ],
  exports: [FileService],
})
export class FileModule implements OnModuleInit {
  constructor(
    private readonly featuredUrls: FeaturedUrlChecks,
    private readonly files: FileService,
  ) {}

  /**
   * The entity service runs this when a record is created with an
   * entity_featured_url or updated to a new one: a URL
   * into our storage must name the owner's uploaded, valid image.
   */
  onModuleInit(): void {
    this.featuredUrls.register(({ url, ownerUuid }) => this.files.assertAttachable(url, ownerUuid));
  }
}
