import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { GlobalAuthGuard } from './auth.guard';
import { CredentialChecks } from './credential-checks';
import { JwtStrategy } from './jwt.strategy';
import { TokenService } from './token.service';

@Global()
@Module({
  imports: [PassportModule, JwtModule.register({})],
  providers: [
    JwtStrategy,
    TokenService,
    CredentialChecks,
    { provide: APP_GUARD, useClass: GlobalAuthGuard },
  ],
  exports: [TokenService, CredentialChecks],
})
export class AuthModule {}
