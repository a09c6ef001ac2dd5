import { Body, Get, Module, Post, Query } from '@nestjs/common';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser } from '../../src/auth/auth.decorator';
import { SpaceController } from '../../src/http/url-space';

class ProbeBody {
  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  @Max(10)
  count!: number;
}

/** Routes that exist only in tests, to exercise the kernel before any module uses it. */
@SpaceController('core', 'probe')
class CoreProbeController {
  @Get('key')
  @ApiKeyOnly()
  probeKey(): { ok: true } {
    return { ok: true };
  }

  @Get('bearer')
  @Auth()
  probeBearer(@CurrentUser() user: AuthUser): Pick<AuthUser, 'uuid'> {
    return { uuid: user.uuid };
  }

  @Get('optional')
  @Auth({ bearer: 'optional' })
  probeOptional(@CurrentUser() user?: AuthUser): { user: Pick<AuthUser, 'uuid'> | null } {
    return { user: user ? { uuid: user.uuid } : null };
  }

  @Get('query')
  @Auth({ queryCredentials: true })
  probeQuery(@CurrentUser() user: AuthUser): Pick<AuthUser, 'uuid'> {
    return { uuid: user.uuid };
  }

  @Post('echo')
  @ApiKeyOnly()
  probeEcho(@Body() body: ProbeBody): ProbeBody {
    return body;
  }

  @Get('slow')
  @ApiKeyOnly()
  async probeSlow(@Query('ms') ms = '300'): Promise<{ waited: number }> {
    await new Promise((resolve) => setTimeout(resolve, Number(ms)));
    return { waited: Number(ms) };
  }

  @Get('boom')
  @ApiKeyOnly()
  probeBoom(): never {
    throw new Error('relation "secret_table" does not exist: SELECT * FROM secret_table');
  }

  @Get('undeclared')
  probeUndeclared(): { ok: true } {
    return { ok: true };
  }
}

@SpaceController('files', 'probe')
class FilesProbeController {
  @Get()
  @ApiKeyOnly()
  probeFiles(): { space: string } {
    return { space: 'files' };
  }
}

@SpaceController('orders', 'probe')
class OrdersProbeController {
  @Get()
  @ApiKeyOnly()
  probeOrders(): { space: string } {
    return { space: 'orders' };
  }
}

@Module({ controllers: [CoreProbeController, FilesProbeController, OrdersProbeController] })
export class ProbeModule {}
