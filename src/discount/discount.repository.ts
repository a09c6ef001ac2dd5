import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { DiscountFields } from './domain/discount-rules';
import { DiscountEntity, DiscountRedemptionEntity } from './discount.entity';

/** Postgres unique violation. */
function isUniqueViolation(error: unknown): boolean {
  return (
    (error as { code?: string; driverError?: { code?: string } })?.driverError?.code === '23505' ||
    (error as { code?: string })?.code === '23505'
  );
}

@Injectable()
export class DiscountRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The new code, or null when the business already has (or had) this code. */
  async insert(businessUuid: string, fields: DiscountFields): Promise<DiscountEntity | null> {
    try {
      return await this.dataSource.getRepository(DiscountEntity).save({ businessUuid, ...fields });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** The changed code, or null when the new code is taken. */
  async update(discount: DiscountEntity, fields: DiscountFields): Promise<DiscountEntity | null> {
    try {
      return await this.dataSource.getRepository(DiscountEntity).save({ ...discount, ...fields });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async disableForGood(discount: DiscountEntity, now: Date): Promise<void> {
    await this.dataSource
      .getRepository(DiscountEntity)
      .update({ uuid: discount.uuid }, { enabled: false, deletedAt: now });
  }

  /** A live code of the business. */
  findLive(businessUuid: string, uuid: string): Promise<DiscountEntity | null> {
    return this.dataSource
      .getRepository(DiscountEntity)
      .findOneBy({ uuid, businessUuid, deletedAt: IsNull() });
  }

  listLive(businessUuid: string): Promise<DiscountEntity[]> {
    return this.dataSource.getRepository(DiscountEntity).find({
      where: { businessUuid, deletedAt: IsNull() },
      order: { createdAt: 'ASC', uuid: 'ASC' },
    });
  }

  /** Redemptions per code. */
  async redemptionCounts(uuids: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (uuids.length === 0) return counts;
    const rows: Array<{ discount_uuid: string; n: number }> = await this.dataSource.query(
      `SELECT discount_uuid::text AS discount_uuid, count(*)::int AS n
         FROM discount_redemptions WHERE discount_uuid = ANY($1::uuid[]) GROUP BY discount_uuid`,
      [uuids],
    );
    for (const row of rows) counts.set(row.discount_uuid, row.n);
    return counts;
  }

  /**
   * The business's code, case-insensitively; with lock `row`, its row is
   * locked until the transaction ends, so redemptions are counted one order at
   * a time.
   */
  async findByCode(
    manager: EntityManager,
    businessUuid: string,
    code: string,
    lock: 'none' | 'row',
  ): Promise<DiscountEntity | null> {
    const query = manager
      .getRepository(DiscountEntity)
      .createQueryBuilder('d')
      .where('d.business_uuid = :businessUuid AND d.code = :code', {
        businessUuid,
        code: code.toUpperCase(),
      });
    if (lock === 'row') query.setLock('pessimistic_write');
    return query.getOne();
  }

  /**
   * Locks one guest's redemptions of one code until the transaction ends (a
   * transaction-scoped advisory lock on the pair): that guest's simultaneous
   * orders count their redemptions one after another, other guests' orders
   * are not held up.
   */
  async lockGuestRedemptions(
    manager: EntityManager,
    discountUuid: string,
    email: string,
  ): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `discount-redemption:${discountUuid}:${email}`,
    ]);
  }

  async countRedemptions(
    manager: EntityManager,
    discountUuid: string,
    email: string,
  ): Promise<{ redeemed: number; redeemedByEmail: number }> {
    const [row]: Array<{ redeemed: number; by_email: number }> = await manager.query(
      `SELECT count(*)::int AS redeemed, count(*) FILTER (WHERE email = $2)::int AS by_email
         FROM discount_redemptions WHERE discount_uuid = $1`,
      [discountUuid, email],
    );
    return { redeemed: row.redeemed, redeemedByEmail: row.by_email };
  }

  async insertRedemption(
    manager: EntityManager,
    redemption: Pick<DiscountRedemptionEntity, 'orderUuid' | 'discountUuid' | 'email'>,
  ): Promise<void> {
    await manager.query(
      'INSERT INTO discount_redemptions (order_uuid, discount_uuid, email) VALUES ($1, $2, $3)',
      [redemption.orderUuid, redemption.discountUuid, redemption.email],
    );
  }

  async deleteRedemption(manager: EntityManager, orderUuid: string): Promise<void> {
    await manager.query('DELETE FROM discount_redemptions WHERE order_uuid = $1', [orderUuid]);
  }
}
