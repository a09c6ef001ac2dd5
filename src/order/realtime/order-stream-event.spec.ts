import { OrderStreamEvent, parseOrderStreamEvent, sseFrame } from './order-stream-event';

const event: OrderStreamEvent = {
  id: 'b3b1f7f4-98a4-4a53-9d5e-111111111111',
  type: 'order.created',
  ownerUuid: 'b3b1f7f4-98a4-4a53-9d5e-222222222222',
  order: {
    uuid: 'b3b1f7f4-98a4-4a53-9d5e-333333333333',
    order_reference: 'ABCD-EFGH',
    status: 'pending',
    payment_status: 'unpaid',
    menu_uuid: 'b3b1f7f4-98a4-4a53-9d5e-444444444444',
    business_uuid: 'b3b1f7f4-98a4-4a53-9d5e-555555555555',
    amount: '1.00',
    currency: 'NGN',
    payment_processor: 'cash',
    fulfilment_type: 'pickup',
    requested_time: null,
    estimated_ready_at: null,
    delivery_zone: null,
    estimated_delivery_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  },
};

describe('order stream events', () => {
  it('survive the trip through a NOTIFY payload', () => {
    expect(parseOrderStreamEvent(JSON.stringify(event))).toEqual(event);
  });

  it('refuse payloads that are not events', () => {
    for (const payload of [
      undefined,
      '',
      'not json',
      'null',
      '[]',
      JSON.stringify({ ...event, type: 'order.deleted' }),
      JSON.stringify({ ...event, ownerUuid: 'someone' }),
      JSON.stringify({ ...event, order: null }),
    ]) {
      expect(parseOrderStreamEvent(payload)).toBeNull();
    }
  });

  it('become one SSE frame with a one-line JSON data field', () => {
    const frame = sseFrame({ ...event, order: { ...event.order, currency: 'a\nb' } });
    expect(frame.endsWith('\n\n')).toBe(true);
    const lines = frame.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`id: ${event.id}`);
    expect(lines[1]).toBe('event: order.created');
    expect(JSON.parse(lines[2].slice('data: '.length)).currency).toBe('a\nb');
  });
});
