import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * One table for every entity type (business, menu, item): the common columns
 * of every record as real columns and the per-type part in `extra_data`.
 */
@Entity('entities')
@Index('entities_type_owner_idx', ['entityType', 'ownedBy'])
@Index('entities_parent_idx', ['parentEntityUuid'])
// Partial and functional indexes (request_id, meta_key) live in the migrations only.
@Index('entities_owner_type_request_key', { synchronize: false })
@Index('entities_top_meta_key_key', { synchronize: false })
@Index('entities_menu_meta_key_key', { synchronize: false })
// Read paths: meta_key lookups of any type, and a parent's children by sort_position.
@Index('entities_type_meta_key_idx', { synchronize: false })
@Index('entities_parent_type_sort_idx', { synchronize: false })
export class EntityRecord {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_entities' })
  uuid!: string;

  @Column({ name: 'entity_type', type: 'varchar', length: 64 })
  entityType!: string;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  slug!: string | null;

  @Column({ name: 'meta_key', type: 'varchar', length: 255, nullable: true })
  metaKey!: string | null;

  @Column({ name: 'meta_value', type: 'text', nullable: true })
  metaValue!: string | null;

  @Column({ name: 'title_name', type: 'varchar', length: 255, nullable: true })
  titleName!: string | null;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'entity_featured_url', type: 'text', nullable: true })
  entityFeaturedUrl!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'enabled' })
  status!: string;

  @Column({ name: 'owned_by', type: 'uuid' })
  ownedBy!: string;

  /** The user who last created or changed the record: the owner or a member of the business. */
  @Column({ name: 'updated_by', type: 'uuid', nullable: true })
  updatedBy!: string | null;

  @Column({ name: 'parent_entity_type', type: 'varchar', length: 64, nullable: true })
  parentEntityType!: string | null;

  @Column({ name: 'parent_entity_uuid', type: 'uuid', nullable: true })
  parentEntityUuid!: string | null;

  @Column({ name: 'extra_data', type: 'jsonb', default: {} })
  extraData!: Record<string, unknown>;

  @Column({ name: 'trashed_at', type: 'timestamptz', nullable: true })
  trashedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
