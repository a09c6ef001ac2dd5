import { randomBytes } from 'node:crypto';
import { MediumContext } from './medium';

/**
 * Rows for medium specs, written straight into the tables (no service, no
 * HTTP): each call makes a fresh record with unique names, overridable.
 */
export interface MediumUser {
  uuid: string;
  email: string;
}

export interface MediumEntity {
  uuid: string;
  entityType: string;
  ownedBy: string;
  metaKey: string;
}

const tag = () => randomBytes(5).toString('hex');

export async function newUser(ctx: MediumContext): Promise<MediumUser> {
  const suffix = tag();
  const [row] = await ctx.sql<{ uuid: string; email: string }>(
    `INSERT INTO users (email, name, username, password_hash)
     VALUES ($1, 'Medium User', $2, 'not-a-password-hash') RETURNING uuid::text AS uuid, email`,
    [`user-${suffix}@example.test`, `user_${suffix}`],
  );
  return row;
}

/**
 * A record of the entities table: `suffix` is the type's suffix (`business`,
 * `business_menu`, `business_menu_item`), prefixed with the service's namespace.
 */
export async function newEntity(
  ctx: MediumContext,
  suffix: string,
  ownedBy: string,
  fields: {
    parent?: MediumEntity;
    metaKey?: string;
    status?: string;
    titleName?: string;
    extraData?: Record<string, unknown>;
    trashed?: boolean;
  } = {},
): Promise<MediumEntity> {
  const entityType = `${ctx.config.namespace}_${suffix}`;
  const metaKey = fields.metaKey ?? `${suffix}-${tag()}`;
  const [row] = await ctx.sql<{ uuid: string }>(
    `INSERT INTO entities (entity_type, owned_by, meta_key, title_name, status,
       parent_entity_type, parent_entity_uuid, extra_data, trashed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, CASE WHEN $9::boolean THEN now() END)
     RETURNING uuid::text AS uuid`,
    [
      entityType,
      ownedBy,
      metaKey,
      fields.titleName ?? `Title of ${metaKey}`,
      fields.status ?? 'enabled',
      fields.parent?.entityType ?? null,
      fields.parent?.uuid ?? null,
      JSON.stringify(fields.extraData ?? {}),
      fields.trashed ?? false,
    ],
  );
  return { uuid: row.uuid, entityType, ownedBy, metaKey };
}

/** A membership row: active (accepted by `user`) or an open invitation to `user`'s address. */
export async function newMember(
  ctx: MediumContext,
  business: MediumEntity,
  user: MediumUser,
  role: 'manager' | 'staff',
  status: 'active' | 'invited' = 'active',
): Promise<string> {
  const [row] = await ctx.sql<{ uuid: string }>(
    `INSERT INTO business_members (business_uuid, email, role, status, user_uuid, token_hash,
       invited_by, expires_at, accepted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + interval '7 days', $8)
     RETURNING uuid::text AS uuid`,
    [
      business.uuid,
      user.email,
      role,
      status,
      status === 'active' ? user.uuid : null,
      status === 'invited' ? randomBytes(32).toString('hex') : null,
      business.ownedBy,
      status === 'active' ? new Date() : null,
    ],
  );
  return row.uuid;
}
