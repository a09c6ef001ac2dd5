import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Matches, ValidateIf } from 'class-validator';
import { CHARGE_CHANNELS, MOBILE_MONEY_PROVIDERS, USSD_BANKS } from '../domain/charge-channels';

/** A payment the guest makes from the order page, without leaving it. */
export class CreatePaymentDto {
  /** `ussd` (NGN), `mobile_money` (GHS for mtn, atl, vod; KES for mpesa) or `bank_transfer` (NGN). */
  @ApiProperty({ enum: CHARGE_CHANNELS, example: 'ussd' })
  @IsIn(CHARGE_CHANNELS)
  channel!: (typeof CHARGE_CHANNELS)[number];

  /** For `ussd`: the bank's USSD code (737 GTBank, 919 UBA, 822 Sterling, 966 Zenith). */
  @ApiProperty({ enum: USSD_BANKS, required: false, example: '737' })
  @ValidateIf((body: CreatePaymentDto) => body.channel === 'ussd')
  @IsIn(USSD_BANKS)
  bank?: string;

  /** For `mobile_money`: the provider (mtn, atl, vod in Ghana; mpesa in Kenya). */
  @ApiProperty({ enum: MOBILE_MONEY_PROVIDERS, required: false, example: 'mtn' })
  @ValidateIf((body: CreatePaymentDto) => body.channel === 'mobile_money')
  @IsIn(MOBILE_MONEY_PROVIDERS)
  provider?: string;

  /** For `mobile_money`: the wallet's phone number, international (+233…) or national (055…). */
  @ApiProperty({ required: false, example: '+233551234987' })
  @ValidateIf((body: CreatePaymentDto) => body.channel === 'mobile_money')
  @IsString()
  @Matches(/^\+?[0-9]{9,15}$/, { message: 'phone must be 9 to 15 digits, with an optional +' })
  phone?: string;
}

/** The one-time code the guest received for a charge. */
export class SubmitOtpDto {
  @ApiProperty({ example: '123456' })
  @IsString()
  @Matches(/^[0-9A-Za-z]{3,12}$/, { message: 'otp must be 3 to 12 letters or digits' })
  otp!: string;
}
