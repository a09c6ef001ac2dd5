import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Trim } from './account-validators';

export class LoginUserDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  email!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  password!: string;
}
