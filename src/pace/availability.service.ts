import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { Clock } from '../common/clock';
import { isUuid } from '../common/uuid';
import { EventBus } from '../database/event-bus';
import {
  Availability,
  AVAILABILITY_KEY,
  availabilityAt,
  EntityRecord,
  EntityService,
} from '../entity';
import { ApiError, ErrorDetail } from '../http/api-error';
import { AccessPolicy } from '../team';
import './availability-events';
import { AvailabilityRepository } from './availability.repository';
import { AvailabilityResponseDto, SetAvailabilityDto } from './dto/availability.dto';

const NO_BUSINESS = { noPart: 'not_found' as const, message: 'Business not found.' };
/** `until` is at most this far ahead. */
const MAX_UNTIL_MS = 12 * 60 * 60_000;

/**
 * The kitchen's switch (open, busy, paused) of a business, for its owner,
 * managers and staff. The state lives on the business record (so the
 * storefront, placement and the ready times read it with the record); each
 * change is recorded with who made it and when, and announced as the
 * webhook `business.availability_changed`, in one transaction.
 */
@Injectable()
export class AvailabilityService {
  constructor(
    private readonly access: AccessPolicy,
    private readonly entities: EntityService,
    private readonly changes: AvailabilityRepository,
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  async read(user: AuthUser, businessUuid: string): Promise<AvailabilityResponseDto> {
    const business = await this.business(user, businessUuid);
    const last = await this.changes.latest(business.uuid);
    return toResponse(availabilityAt(business.extraData, this.clock.now()), last);
  }

  // R93: the availability route.
  async set(
    user: AuthUser,
    businessUuid: string,
    dto: SetAvailabilityDto,
  ): Promise<AvailabilityResponseDto> {
    const current = await this.business(user, businessUuid);
    const now = this.clock.now();
    const wanted = this.validated(dto, now);
    return this.bus.transaction(async (tx) => {
      const changedAt = now;
      const stored = {
        ...wanted,
        changed_at: changedAt.toISOString(),
      };
      // Open and busy take orders: the owner's accepting_orders switch follows (one switch).
      const settings: Record<string, unknown> = { [AVAILABILITY_KEY]: stored };
      if (wanted.mode !== 'paused') settings.accepting_orders = true;
      const business = await this.entities.writeBusinessSettings(
        tx,
        current.uuid,
        settings,
        user.uuid,
      );
      if (!business) throw ApiError.notFound('Business not found.');
      const change = {
        businessUuid: business.uuid,
        mode: wanted.mode,
        extraPrepMinutes: wanted.extra_prep_minutes,
        until: wanted.until ? new Date(wanted.until) : null,
        changedBy: user.uuid,
        changedAt,
      };
      await this.changes.record(tx.manager, change);
      const answer = toResponse(availabilityAt(business.extraData, now), change);
      await tx.emit('business.availability_changed', {
        businessUuid: business.uuid,
        ownerUuid: business.ownedBy,
        availability: {
          mode: answer.mode,
          extra_prep_minutes: answer.extra_prep_minutes,
          until: answer.until,
          changed_by: user.uuid,
          changed_at: changedAt.toISOString(),
        },
      });
      return answer;
    });
  }

  /** The body as a switch to store, or 400 naming the field. */
  private validated(dto: SetAvailabilityDto, now: Date): Availability {
    const problems: ErrorDetail[] = [];
    const extra = dto.extra_prep_minutes;
    if (dto.mode === 'busy' && (extra === undefined || extra === null)) {
      problems.push({
        field: 'extra_prep_minutes',
        message: 'busy needs extra_prep_minutes (5–180)',
      });
    }
    if (dto.mode !== 'busy' && extra !== undefined && extra !== null) {
      problems.push({
        field: 'extra_prep_minutes',
        message: `extra_prep_minutes goes with busy only, not ${dto.mode}`,
      });
    }
    let until: string | null = null;
    if (dto.until !== undefined && dto.until !== null) {
      const at = new Date(dto.until).getTime();
      if (dto.mode === 'open') {
        problems.push({ field: 'until', message: 'until goes with busy or paused, not open' });
      } else if (Number.isNaN(at) || at <= now.getTime() || at > now.getTime() + MAX_UNTIL_MS) {
        problems.push({
          field: 'until',
          message: 'until must be in the future and at most 12 hours ahead',
          latest: new Date(now.getTime() + MAX_UNTIL_MS).toISOString(),
        });
      } else {
        until = new Date(at).toISOString();
      }
    }
    if (problems.length) throw ApiError.validation(problems, problems[0].message);
    return {
      mode: dto.mode,
      extra_prep_minutes: dto.mode === 'busy' ? extra! : null,
      until,
    };
  }

  /** The live business for a caller whose role allows the switch (404 no part or none, 403 no role). */
  private async business(user: AuthUser, businessUuid: string): Promise<EntityRecord> {
    if (!isUuid(businessUuid)) throw ApiError.notFound('Business not found.');
    const uuid = businessUuid.toLowerCase();
    await this.access.requireAccess(user, 'business.availability', uuid, NO_BUSINESS);
    const business = await this.entities.liveBusiness(uuid);
    if (!business) throw ApiError.notFound('Business not found.');
    return business;
  }
}

function toResponse(
  availability: Availability,
  last: { changedBy: string; changedAt: Date } | undefined,
): AvailabilityResponseDto {
  return {
    ...availability,
    changed_by: last?.changedBy ?? null,
    changed_at: last ? new Date(last.changedAt).toISOString() : null,
  };
}
