export class OrderNotifyResponseDto {
  uuid!: string;
  order_reference!: string;
}
