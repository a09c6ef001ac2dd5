import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { GlobalAuthGuard } from './auth.guard';
import { CredentialChecks } from './credential-checks';
import { JwtStrategy } from './jwt.strategy';
import { TokenService } from './token.service';

@Global()
@Module({})
export class AuthModule {
  /**
   * `users` is the module that provides UserTokenVersions (the account
   * module), handed in by the composition root: the kernel imports no module.
   */
  static forRoot(users: Type<unknown>): DynamicModule {
    return {
      module: AuthModule,
      imports: [PassportModule, JwtModule.register({}), users],
      providers: [
        JwtStrategy,
        TokenService,
        CredentialChecks,
        { provide: APP_GUARD, useClass: GlobalAuthGuard },
      ],
      exports: [TokenService, CredentialChecks],
    };
  }
}
