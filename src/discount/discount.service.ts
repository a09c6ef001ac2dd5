import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { Clock } from '../common/clock';
import { isUuid } from '../common/uuid';
import { ApiError } from '../http/api-error';
import { ApiResult } from '../http/envelope';
import { EntityService } from '../entity';
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
    private readonly entities: EntityService,
  ) {}

  async create(
    user: AuthUser,
    businessUuid: string,
    dto: CreateDiscountDto,
  ): Promise<ApiResult<DiscountResponseDto>> {
    await this.access.requireAccess(user, 'discount.manage', businessUuid, NO_BUSINESS);
    const fields = this.checked(dto, null);
    await this.checkMenus(businessUuid, dto.menu_uuids);
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
    await this.checkMenus(businessUuid, dto.menu_uuids);
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

  /**
   * `menu_uuids`, when sent as a list, names one or more menus, each of this
   * business (422 naming it otherwise); null or left out is every menu.
   */
  // R76: a code's menus are the business's.
  private async checkMenus(businessUuid: string, sent: string[] | null | undefined): Promise<void> {
    if (sent === undefined || sent === null) return;
    const field = 'menu_uuids';
    if (sent.length === 0) {
      const message =
        'menu_uuids must name at least one menu; leave it out (or send null) for every menu.';
      throw ApiError.unprocessable(message, [{ field, message }]);
    }
    const found = await this.entities.menusOfBusiness(businessUuid, sent);
    const foreign = sent.filter((uuid) => !found.has(uuid.toLowerCase()));
    if (foreign.length === 0) return;
    const message = `menu_uuids names ${foreign.length === 1 ? 'a menu' : 'menus'} this business does not have: ${foreign.join(', ')}.`;
    throw ApiError.unprocessable(message, [{ field, message, unknown: foreign }]);
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
