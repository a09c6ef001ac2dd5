/** The acknowledgement of a provider webhook. */
export class WebhookReceiptDto {
  /** Whether the event changed an order's payment (a replay, an unknown reference or event type does not). */
  changed!: boolean;
}
