import { Injectable, Logger } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { TokenService } from '../auth/token.service';
import { ApiError } from '../http/api-error';
import { alreadyTaken, invalidCredentials, notYourAccount } from './account-errors';
import { AccountRateLimits } from './account-rate-limits';
import { AccountRepository, takenFieldOf } from './account.repository';
import { LoginUserDto } from './dto/login.dto';
import { RegisterUserDto } from './dto/register.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import {
  LoginResultDto,
  RegisteredUserDto,
  toLoginResponse,
  toRegisteredUserResponse,
  toUserProfileResponse,
  UserProfileDto,
} from './dto/user-response.dto';
import { PasswordHasher } from './password-hasher';

/** Register, login and the caller's own profile. */
@Injectable()
export class AccountService {
  private readonly logger = new Logger('Account');

  constructor(
    private readonly users: AccountRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly limits: AccountRateLimits,
  ) {}

  /** 201 without a token: the client logs in next (source 4.1). */
  async register(dto: RegisterUserDto, ip: string): Promise<RegisteredUserDto> {
    await this.limits.register(ip);
    const taken = await this.users.takenFields({ email: dto.email, username: dto.username });
    if (taken.length > 0) throw alreadyTaken(taken);
    const passwordHash = await this.hasher.hash(dto.password);
    try {
      const user = await this.users.insert({
        email: dto.email,
        name: dto.name,
        username: dto.username,
        passwordHash,
        metaData: dto.meta_data ?? {},
      });
      return toRegisteredUserResponse(user);
    } catch (error) {
      // A concurrent register took it between the check and the insert.
      const field = takenFieldOf(error);
      if (field) throw alreadyTaken([field]);
      throw error;
    }
  }

  async login(dto: LoginUserDto, ip: string): Promise<LoginResultDto> {
    await this.limits.perIpAndEmail('login', ip, dto.email);
    const user = await this.users.findByEmail(dto.email);
    // The same work and the same answer whether or not the email is registered.
    const valid = user
      ? await this.hasher.verify(user.passwordHash, dto.password)
      : await this.hasher.verifyNobody(dto.password);
    if (!user || !valid) throw invalidCredentials();
    if (this.hasher.needsRehash(user.passwordHash)) {
      await this.upgradeHash(user.uuid, user.passwordHash, dto.password);
    }
    return toLoginResponse(user, await this.tokens.issue(user));
  }

  async getProfile(caller: AuthUser, uuid: string): Promise<UserProfileDto> {
    assertSelf(caller, uuid);
    const user = await this.users.findByUuid(caller.uuid);
    if (!user) throw ApiError.notFound('The user does not exist.');
    return toUserProfileResponse(user);
  }

  async updateProfile(caller: AuthUser, uuid: string, dto: UpdateUserDto): Promise<UserProfileDto> {
    assertSelf(caller, uuid);
    if (dto.username !== undefined && dto.username !== null) {
      const taken = await this.users.takenFields({ username: dto.username }, caller.uuid);
      if (taken.length > 0) throw alreadyTaken(taken);
    }
    try {
      // A null name or username counts as not sent (both are required columns); null meta_data clears it.
      const user = await this.users.updateProfile(caller.uuid, {
        name: dto.name ?? undefined,
        username: dto.username ?? undefined,
        metaData: dto.meta_data === null ? {} : dto.meta_data,
      });
      if (!user) throw ApiError.notFound('The user does not exist.');
      return toUserProfileResponse(user);
    } catch (error) {
      const field = takenFieldOf(error);
      if (field) throw alreadyTaken([field]);
      throw error;
    }
  }

  /** Hashes made with older parameters are remade while the password is at hand. */
  private async upgradeHash(uuid: string, oldHash: string, password: string): Promise<void> {
    try {
      await this.users.rehashPassword(uuid, oldHash, await this.hasher.hash(password));
    } catch (error) {
      this.logger.warn(`Could not upgrade the password hash of ${uuid}: ${String(error)}`);
    }
  }
}

/** GET/PUT /user/{uuid}: the caller only (403 for anyone else, existing or not). */
function assertSelf(caller: AuthUser, uuid: string): void {
  if (uuid.toLowerCase() !== caller.uuid.toLowerCase()) throw notYourAccount();
}
