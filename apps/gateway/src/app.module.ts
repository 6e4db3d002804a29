import { Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { ClientsModule } from '@nestjs/microservices';
import { HealthIndicatorFunction, TerminusModule } from '@nestjs/terminus';
import {
  environmentValidator,
  FIELD_CIPHER_PROVIDERS,
  HealthController,
  MetricsController,
  ObservabilityModule,
  READINESS_CHECKS,
  ReadinessIndicators,
  rmqClientOptions,
} from '@app/common';
import { QUEUES, queueName } from '@app/contracts';
import { ApplicationsHttpController } from './applications/applications.http.controller';
import { ApiKeyGuard } from './auth/api-key.guard';
import { ApiKeys } from './auth/api-keys';
import {
  APPLICATIONS_QUEUE_CLIENT,
  Backends,
  PROPERTIES_QUEUE_CLIENT,
  RPC_TIMEOUT_MS,
} from './backends/backends';
import { GatewayEnvironment } from './config/gateway.environment';
import { PropertiesHttpController } from './properties/properties.http.controller';
import { DEFAULT_RATE_LIMIT, RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RedisTokenBuckets } from './rate-limit/redis-token-buckets';
import { LocalTokenBuckets, RateLimiter } from './rate-limit/token-bucket';

type Config = ConfigService<GatewayEnvironment, true>;

/** How long the gateway waits for Redis at boot before it starts limiting on its own. */
const REDIS_READY_TIMEOUT_MS = 3000;

const queueClient = (name: symbol, baseQueue: string) => ({
  name,
  inject: [ConfigService],
  useFactory: (config: Config) =>
    rmqClientOptions({ url: config.get('AMQP_URL'), queue: queueName(config.get('NAMESPACE'), baseQueue) }),
});

@Module({
  imports: [
    ConfigModule.forRoot({
      isGlobal: true,
      ignoreEnvFile: true,
      validate: environmentValidator(GatewayEnvironment),
    }),
    ObservabilityModule.forApp('gateway'),
    TerminusModule.forRoot({ errorLogStyle: 'json' }),
    ClientsModule.registerAsync([
      queueClient(PROPERTIES_QUEUE_CLIENT, QUEUES.PROPERTIES),
      queueClient(APPLICATIONS_QUEUE_CLIENT, QUEUES.APPLICATIONS),
    ]),
  ],
  controllers: [PropertiesHttpController, ApplicationsHttpController, HealthController, MetricsController],
  providers: [
    ...FIELD_CIPHER_PROVIDERS,
    Backends,
    ApiKeyGuard,
    RateLimitGuard,
    {
      provide: RateLimiter,
      inject: [ConfigService],
      useFactory: async (config: Config): Promise<RateLimiter> => {
        const url = config.get('REDIS_URL', { infer: true });
        if (!url) return new LocalTokenBuckets();
        const shared = new RedisTokenBuckets(url, config.get('NAMESPACE'));
        await shared.ready(REDIS_READY_TIMEOUT_MS);
        return shared;
      },
    },
    {
      provide: DEFAULT_RATE_LIMIT,
      inject: [ConfigService],
      useFactory: (config: Config) => ({ perSecond: config.get('RATE_LIMIT_PER_SECOND'), burst: config.get('RATE_LIMIT_BURST') }),
    },
    ReadinessIndicators,
    {
      // Ready when connected to the broker and an instance of each service answers a ping.
      provide: READINESS_CHECKS,
      inject: [ReadinessIndicators, Backends],
      useFactory: (indicators: ReadinessIndicators, backends: Backends): HealthIndicatorFunction[] => {
        const connections = backends.brokerConnections();
        return [
          () => indicators.broker('broker', connections),
          () => indicators.answers('properties', () => backends.ping('properties'), 'the properties service'),
          () => indicators.answers('applications', () => backends.ping('applications'), 'the applications service'),
        ];
      },
    },
    {
      provide: ApiKeys,
      inject: [ConfigService],
      useFactory: (config: Config) => new ApiKeys(config.get('API_KEYS')),
    },
    {
      provide: RPC_TIMEOUT_MS,
      inject: [ConfigService],
      useFactory: (config: Config) => config.get('RPC_TIMEOUT_MS'),
    },
  ],
})
export class AppModule {}
