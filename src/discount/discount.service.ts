import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { Clock } from '../common/clock';
import { isUuid } from '../common/uuid';
import { ApiError } from '../http/api-error';
import { ApiResult } from '../http/envelope';
import { AccessPolicy } from '../team';
import { DiscountFields, discountFields } from './domain/discount-rules';
import { DiscountEntity } from './discount.entity';
import { DiscountRepository } from './discount.repository';
import {
  CreateDiscountDto,
  DiscountResponseDto,
  toDiscountResponse,
  UpdateDiscountDto,
} from './dto/discount.dto';

const NO_BUSINESS = { noPart: 'not_found' as const, message: 'Business not found.' };

/**
 * A business's discount codes, managed by its owner and managers. A code is
 * unique per business without regard to case (409); deleting one disables it
 * for good, and orders placed with it keep their discount.
 */
@Injectable()
export class DiscountService {
  constructor(
    private readonly access: AccessPolicy,
    private readonly repository: DiscountRepository,
    private readonly clock: Clock,
  ) {}

  async create(
    user: AuthUser,
    businessUuid: string,
    dto: CreateDiscountDto,
  ): Promise<ApiResult<DiscountResponseDto>> {
    await this.access.requireAccess(user, 'discount.manage', businessUuid, NO_BUSINESS);
    const fields = this.checked(dto, null);
    const created = await this.repository.insert(businessUuid.toLowerCase(), fields);
    if (!created) throw this.taken(fields.code);
    return new ApiResult(toDiscountResponse(created, 0), 'Discount code created', undefined, 201);
  }

  async list(user: AuthUser, businessUuid: string): Promise<DiscountResponseDto[]> {
    await this.access.requireAccess(user, 'discount.manage', businessUuid, NO_BUSINESS);
    const discounts = await this.repository.listLive(businessUuid.toLowerCase());
    const counts = await this.repository.redemptionCounts(discounts.map((d) => d.uuid));
    return discounts.map((d) => toDiscountResponse(d, counts.get(d.uuid) ?? 0));
  }

  async get(user: AuthUser, businessUuid: string, uuid: string): Promise<DiscountResponseDto> {
    await this.access.requireAccess(user, 'discount.manage', businessUuid, NO_BUSINESS);
    const discount = await this.find(businessUuid, uuid);
    return this.answer(discount);
  }

  async update(
    user: AuthUser,
    businessUuid: string,
    uuid: string,
    dto: UpdateDiscountDto,
  ): Promise<DiscountResponseDto> {
    await this.access.requireAccess(user, 'discount.manage', businessUuid, NO_BUSINESS);
    const discount = await this.find(businessUuid, uuid);
    const fields = this.checked(dto, discount);
    const updated = await this.repository.update(discount, fields);
    if (!updated) throw this.taken(fields.code);
    return this.answer(updated);
  }

  async remove(user: AuthUser, businessUuid: string, uuid: string): Promise<void> {
    await this.access.requireAccess(user, 'discount.manage', businessUuid, NO_BUSINESS);
    const discount = await this.find(businessUuid, uuid);
    await this.repository.disableForGood(discount, this.clock.now());
  }

  private checked(dto: CreateDiscountDto | UpdateDiscountDto, current: DiscountFields | null) {
    const { fields, faults } = discountFields(dto, current);
    if (faults.length) throw ApiError.validation(faults);
    return fields;
  }

  private taken(code: string): ApiError {
    return ApiError.conflict(`This business already has the code ${code}.`, [
      { field: 'code', message: 'already used by this business (compared without regard to case)' },
    ]);
  }

  private async find(businessUuid: string, uuid: string): Promise<DiscountEntity> {
    const discount = isUuid(uuid)
      ? await this.repository.findLive(businessUuid.toLowerCase(), uuid.toLowerCase())
      : null;
    if (!discount) throw ApiError.notFound('Discount code not found.');
    return discount;
  }

  private async answer(discount: DiscountEntity): Promise<DiscountResponseDto> {
    const counts = await this.repository.redemptionCounts([discount.uuid]);
    return toDiscountResponse(discount, counts.get(discount.uuid) ?? 0);
  }
}
