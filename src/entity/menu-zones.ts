import { Injectable } from '@nestjs/common';
import {
  DeliveryZone,
  readDeliveryZones,
  withoutZones,
  writtenZones,
} from './domain/delivery-zones';

/** A menu with delivery zones as this process holds it, for one version of its row. */
export interface HeldMenu {
  readonly version: string;
  /** The menu's extra_data without its zones. */
  readonly extraData: Record<string, unknown>;
  readonly zones: readonly DeliveryZone[];
  /** Polygon points and area names: what the entry costs to keep, roughly. */
  readonly weight: number;
}

/** Menus held at most, and their points and area names in all. */
const MAX_MENUS = 256;
const MAX_WEIGHT = 500_000;

function weightOf(zones: readonly DeliveryZone[]): number {
  return zones.reduce(
    (sum, zone) =>
      sum +
      1 +
      (zone.kind === 'polygon'
        ? zone.polygon.xs.length
        : zone.kind === 'areas'
          ? zone.areas.size
          : 0),
    0,
  );
}

/**
 * The delivery zones of the menus that have them, prepared once per version
 * of the menu's row (polygons as typed arrays with bounding boxes, area names
 * folded) and kept in this process, the least recently used dropped first.
 * Placement passes the held version to its read of the menu, which then
 * leaves the menu's `extra_data` in the database when it is unchanged: the
 * points are neither sent, parsed nor prepared again. Every process asks the
 * database for the version, so a write seen by one is seen by all.
 */
@Injectable()
export class MenuZones {
  private readonly held = new Map<string, HeldMenu>();
  private weight = 0;

  /** What this process holds for the menu (its version for the read), or undefined. */
  lookup(menuUuid: string): HeldMenu | undefined {
    const entry = this.held.get(menuUuid);
    if (entry) {
      // Most recently used last.
      this.held.delete(menuUuid);
      this.held.set(menuUuid, entry);
    }
    return entry;
  }

  /**
   * The menu's extra_data without zones and its prepared zones (null: none),
   * from a fresh read of its row (then held when it has zones), or from
   * `held` when the read left `extra_data` out because the row is still at
   * `held`'s version.
   */
  resolve(
    menuUuid: string,
    read: { version: string; extraDataRead: boolean; menu: { extraData: Record<string, unknown> } },
    held: HeldMenu | undefined,
  ): { extraData: Record<string, unknown>; zones: readonly DeliveryZone[] | null } {
    const { version } = read;
    if (!read.extraDataRead) {
      if (!held || held.version !== version) {
        throw new Error(`menu ${menuUuid} was read without its extra_data, which is not held`);
      }
      return { extraData: held.extraData, zones: held.zones };
    }
    const extraData = read.menu.extraData;
    const zones = readDeliveryZones(writtenZones(extraData));
    const stripped = withoutZones(extraData);
    this.forget(menuUuid);
    if (zones)
      this.keep(menuUuid, { version, extraData: stripped, zones, weight: weightOf(zones) });
    return { extraData: stripped, zones };
  }

  private keep(menuUuid: string, entry: HeldMenu): void {
    if (entry.weight > MAX_WEIGHT) return;
    this.held.set(menuUuid, entry);
    this.weight += entry.weight;
    for (const [uuid] of this.held) {
      if (this.held.size <= MAX_MENUS && this.weight <= MAX_WEIGHT) break;
      this.forget(uuid);
    }
  }

  private forget(menuUuid: string): void {
    const entry = this.held.get(menuUuid);
    if (!entry) return;
    this.held.delete(menuUuid);
    this.weight -= entry.weight;
  }
}
