import { DEFAULT_KITCHEN, KitchenSetting } from '../../entity';
import { routeLines, stationOf } from './routing';
import { canMoveLine, ticketStatusOf } from './ticket-status';

const burger = '11111111-1111-4111-8111-111111111111';
const kitchen: KitchenSetting = {
  stations: [
    { key: 'grill', title: 'Grill', categories: ['Burgers'], item_uuids: [] },
    { key: 'bar', title: 'Bar', categories: ['Drinks'], item_uuids: [burger] },
  ],
  default_station: 'grill',
};

describe('routing (R82)', () => {
  it('by item uuid, then category, then the default; Delivery nowhere', () => {
    expect(stationOf({ itemUuid: burger.toUpperCase(), category: 'Burgers' }, kitchen)).toBe('bar');
    expect(stationOf({ itemUuid: 'x', category: 'Drinks' }, kitchen)).toBe('bar');
    expect(stationOf({ itemUuid: 'x', category: 'Soups' }, kitchen)).toBe('grill');
    expect(stationOf({ itemUuid: 'x', category: null }, kitchen)).toBe('grill');
    expect(stationOf({ itemUuid: 'x', category: 'Delivery' }, kitchen)).toBeNull();
    expect(stationOf({ itemUuid: 'x', category: 'Food' }, DEFAULT_KITCHEN)).toBe('kitchen');
  });

  it('leaves out stations without lines', () => {
    const routed = routeLines([{ itemUuid: 'x', category: 'Drinks' }], kitchen);
    expect([...routed.keys()]).toEqual(['bar']);
  });
});

describe('line moves (R83)', () => {
  it('one step at a time, either way', () => {
    expect(canMoveLine('queued', 'preparing')).toBe(true);
    expect(canMoveLine('preparing', 'queued')).toBe(true);
    expect(canMoveLine('ready', 'preparing')).toBe(true);
    expect(canMoveLine('queued', 'ready')).toBe(false);
    expect(canMoveLine('ready', 'queued')).toBe(false);
    expect(canMoveLine('queued', 'queued')).toBe(false);
  });

  it("a ticket is its slowest line's", () => {
    expect(ticketStatusOf([{ status: 'ready' }, { status: 'preparing' }])).toBe('preparing');
    expect(ticketStatusOf([{ status: 'ready' }])).toBe('ready');
  });
});
