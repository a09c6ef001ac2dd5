import { OrderResponseDto } from './dto/order-response.dto';
import { businessContact, customerCopyMail, ownerAlertMail } from './order-mails';

const order: OrderResponseDto = {
  uuid: 'o-1',
  order_reference: 'ABCD-EFGH',
  status: 'pending',
  payment_status: 'unpaid',
  payment: {
    provider: 'bank_transfer',
    collect: 'offline',
    status: 'unpaid',
    reference: null,
    authorization_url: null,
    access_code: null,
    instructions: null,
    currency: 'NGN',
    amount_due: '59.97',
    amount_paid: '0.00',
    amount_refunded: '0.00',
    paid_at: null,
    error: null,
  },
  payments: [],
  menu_uuid: 'm-1',
  business_uuid: 'b-1',
  amount: '59.97',
  pricing: {
    items_subtotal: '59.97',
    delivery_fee: '0.00',
    discount: '0.00',
    discount_code: null,
    service_charge: '0.00',
    tax: '0.00',
    tax_inclusive: false,
    tip: '0.00',
    total: '59.97',
  },
  currency: 'NGN',
  payment_processor: 'bank_transfer',
  customer_email_address: 'guest@example.test',
  customer_phone_number: '+2348000000000',
  customer_requested_order_email_copy: true,
  delivery_data: null,
  onpremise_data: {
    customer_onpremise_location_type: 'Table',
    customer_onpremise_location: 'Table_12',
  },
  general_note: 'Ring twice',
  owner_note: null,
  channel: 'online',
  tab_uuid: null,
  fulfilment_type: 'dine_in',
  requested_time: '2026-12-04T18:30:00.000Z',
  estimated_ready_at: null,
  delivery_zone: null,
  language: null,
  estimated_delivery_at: null,
  items: [
    {
      line_uuid: '6f1c2d3e-0000-4000-8000-000000000001',
      item_uuid: 'i-1',
      title_name: 'Platter',
      category: 'Food',
      unit_price_amount: '19.99',
      options: [],
      quantity: 3,
      line_total: '59.97',
      item_note: 'no onions',
      allergens: [],
    },
  ],
  history: [],
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
};

describe('order mails', () => {
  const business = businessContact(
    {
      titleName: 'Mama Put\r\nBcc: x@evil.test',
      metaKey: 'mama-put',
      extraData: { contact_email: 'shop@example.test', business_address: '1 Market Rd' },
    },
    { extraData: { contact_info: { mobile_number: '+234 800 111', address: '' } } },
  );

  it('takes the contact from the menu first and the business where the menu is silent', () => {
    expect(business).toEqual({
      name: 'Mama Put\r\nBcc: x@evil.test',
      email: 'shop@example.test',
      phone: '+234 800 111',
      address: '1 Market Rd',
    });
    expect(
      businessContact({ titleName: null, metaKey: null, extraData: {} }, { extraData: {} }).name,
    ).toBe('the business');
  });

  it('gives the customer the lines, total, reference and the business contact', () => {
    const mail = customerCopyMail(order, business);
    expect(mail.to).toBe('guest@example.test');
    expect(mail.subject).toBe('Your order ABCD-EFGH at Mama Put Bcc: x@evil.test');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    for (const part of [
      'ABCD-EFGH',
      '3 × Platter @ 19.99 NGN = 59.97 NGN',
      'note: no onions',
      'Total: 59.97 NGN',
      'Payment: bank transfer',
      'On the premises: Table Table_12',
      'Fulfilment: Dine-in',
      'Requested for: 2026-12-04T18:30:00.000Z',
      'Email: shop@example.test',
      'Phone: +234 800 111',
      'Address: 1 Market Rd',
    ]) {
      expect(mail.text).toContain(part);
    }
  });

  // R118: the guest's copy is in the order's language when a template exists.
  it('writes the customer copy in French for an order placed in French (fr-CI too)', () => {
    for (const language of ['fr', 'fr-CI']) {
      const mail = customerCopyMail({ ...order, language }, business);
      expect(mail.subject).toBe('Votre commande ABCD-EFGH chez Mama Put Bcc: x@evil.test');
      for (const part of [
        'Merci pour votre commande chez',
        'note: no onions',
        'Total: 59.97 NGN',
        'Paiement: virement bancaire',
        'Sur place: Table Table_12',
        'Demandée pour: 2026-12-04T18:30:00.000Z',
        'Téléphone: +234 800 111',
      ]) {
        expect(mail.text).toContain(part);
      }
    }
    // A language without a template: English.
    expect(customerCopyMail({ ...order, language: 'yo' }, business).subject).toMatch(/^Your order/);
  });

  it('tells the owner what was ordered and how to reach the customer', () => {
    const mail = ownerAlertMail(order, business, 'owner@example.test');
    expect(mail.to).toBe('owner@example.test');
    expect(mail.subject).toContain('New order ABCD-EFGH');
    for (const part of ['Total: 59.97 NGN', 'guest@example.test', '+2348000000000', 'Ring twice']) {
      expect(mail.text).toContain(part);
    }
  });

  it('names the chosen options of a line', () => {
    const withOptions = {
      ...order,
      items: [
        {
          ...order.items[0],
          options: [
            {
              group: 'size',
              group_title: 'Size',
              option: 'large',
              option_title: 'Large',
              price_delta: '1.50',
            },
            {
              group: 'extras',
              group_title: 'Extras',
              option: 'cheese',
              option_title: null,
              price_delta: '0.75',
            },
          ],
        },
      ],
    };
    expect(ownerAlertMail(withOptions, business, 'owner@example.test').text).toContain(
      '3 × Platter (Large, cheese) @ 19.99 NGN',
    );
  });

  it('leaves out an on-premises place the storefront sent empty', () => {
    const mail = customerCopyMail(
      { ...order, onpremise_data: { customer_onpremise_location: '_' } },
      business,
    );
    expect(mail.text).not.toContain('On the premises');
  });

  it('shows the price in lines when there is more than items', () => {
    const priced: OrderResponseDto = {
      ...order,
      amount: '65.21',
      pricing: {
        items_subtotal: '50.00',
        delivery_fee: '0.00',
        discount: '5.00',
        discount_code: 'WELCOME10',
        service_charge: '4.50',
        tax: '3.71',
        tax_inclusive: false,
        tip: '2.00',
        total: '65.21',
      },
    };
    const text = customerCopyMail(priced, business).text;
    expect(text).toContain('Subtotal: 50.00 NGN');
    expect(text).toContain('Discount (WELCOME10): -5.00 NGN');
    expect(text).toContain('Service charge: 4.50 NGN');
    expect(text).toContain('Tax: 3.71 NGN');
    expect(text).toContain('Tip: 2.00 NGN');
    expect(text).not.toContain('Delivery:');
  });

  it('shows no price lines for an order of items alone', () => {
    expect(customerCopyMail(order, business).text).not.toContain('Subtotal');
  });
});
