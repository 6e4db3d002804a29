import { Module } from '@nestjs/common';
import { GatewayEnvironment } from '../config/gateway.environment';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeys } from './api-keys';

/** Who is calling: the configured API keys and the guard that checks them. */
@Module({
  providers: [
    {
      provide: ApiKeys,
      inject: [GatewayEnvironment],
      useFactory: (env: GatewayEnvironment) => new ApiKeys(env.API_KEYS, env.API_KEY_SCOPES),
    },
    ApiKeyGuard,
  ],
  exports: [ApiKeys, ApiKeyGuard],
})
export class AuthModule {}
