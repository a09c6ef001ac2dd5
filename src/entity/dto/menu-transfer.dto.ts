import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

const BOOLEAN_TEXT = ['true', 'false'] as const;

/** The switches of an import. */
export class ImportMenuQueryDto {
  /** `true`: check the file and answer the counts, writing nothing. */
  @IsOptional()
  @IsIn(BOOLEAN_TEXT, { message: 'dry_run must be true or false' })
  @ApiPropertyOptional({ enum: BOOLEAN_TEXT, default: 'false' })
  dry_run?: 'true' | 'false';

  /** `true`: the menu's live items the file does not name go to the trash (restorable). */
  @IsOptional()
  @IsIn(BOOLEAN_TEXT, { message: 'prune must be true or false' })
  @ApiPropertyOptional({ enum: BOOLEAN_TEXT, default: 'false' })
  prune?: 'true' | 'false';
}

/** One fault of an import file. */
export class ImportErrorDto {
  /** The file's line (the header is line 1); null for a JSON file. */
  @ApiProperty({ type: 'integer', nullable: true, example: 7 })
  row!: number | null;

  /** The CSV column, or for JSON a JSON pointer such as `/items/3/extra_data/allergens`. */
  @ApiProperty({ type: 'string', nullable: true, example: 'unit_price_amount' })
  column!: string | null;

  /** What is wrong. */
  message!: string;
}

/** What an import did (or, with dry_run, would do). */
export class ImportCountsDto {
  /** Items created. */
  created!: number;
  /** Items changed. */
  updated!: number;
  /** Items named by the file and left as they were. */
  unchanged!: number;
  /** Items moved to the trash by `prune`. */
  trashed!: number;
  /** Always empty in a 200: an import with a fault is 422 IMPORT_FAILED with the faults as its details. */
  @ApiProperty({ type: [ImportErrorDto] })
  errors!: ImportErrorDto[];
}
