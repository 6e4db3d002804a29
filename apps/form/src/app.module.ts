import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { EnvironmentModule } from '@app/config';
import { QUEUES } from '@app/contracts';
import { formSealerProviders } from '@app/crypto';
import { queueClients } from '@app/messaging';
import { ObservabilityModule } from '@app/observability';
import { documentUploadProviders } from '@app/documents';
import { rateLimiter, RateLimiter } from '@app/rate-limit';
import { FormBackends } from './backends/form-backends';
import { FormEnvironment } from './config/form.environment';
import { DocumentsHttpController } from './documents/documents.http.controller';
import { CsrfTokens } from './form/csrf-tokens';
import { FormErrorFilter } from './form/form-error.filter';
import { FormFlow } from './form/form-flow';
import { FormHttpController } from './form/form.http.controller';
import { FormLinks } from './form/form-links';
import { FormPresetSource } from './form/preset-source';
import { StaticAssetsHttpController } from './form/static-assets.http.controller';
import { StepsHttpController } from './form/steps.http.controller';
import { MailLinksHttpController } from './mail/mail-links.http.controller';

@Module({
  imports: [
    EnvironmentModule.forRoot(FormEnvironment),
    ObservabilityModule.forApp('form'),
    queueClients(QUEUES.PROPERTIES, QUEUES.APPLICATIONS, QUEUES.NOTIFICATIONS),
  ],
  controllers: [
    StaticAssetsHttpController,
    FormHttpController,
    StepsHttpController,
    DocumentsHttpController,
    MailLinksHttpController,
  ],
  providers: [
    ...formSealerProviders(FormEnvironment),
    ...documentUploadProviders(FormEnvironment),
    FormBackends,
    FormPresetSource,
    FormFlow,
    FormLinks,
    {
      provide: CsrfTokens,
      inject: [FormEnvironment],
      useFactory: (env: FormEnvironment) => CsrfTokens.fromKeyRing(env.CSRF_KEYS),
    },
    {
      provide: RateLimiter,
      inject: [FormEnvironment],
      useFactory: (env: FormEnvironment): Promise<RateLimiter> => rateLimiter(env.REDIS_URL, env.NAMESPACE),
    },
    { provide: APP_FILTER, useClass: FormErrorFilter },
  ],
})
export class AppModule {}
