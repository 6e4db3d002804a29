import { Module } from '@nestjs/common';
import { fieldCipherProviders } from '@app/crypto';
import { documentVaultProviders } from '@app/documents';
import { AuthModule } from '../auth/auth.module';
import { BackendsModule } from '../backends/backends.module';
import { GatewayEnvironment } from '../config/gateway.environment';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ApplicationSummaryHttpController } from './application-summary.http.controller';
import { DocumentsHttpController } from './documents.http.controller';
import { SummaryPdfRenderer } from './summary-pdf-renderer';

@Module({
  imports: [AuthModule, RateLimitModule, BackendsModule],
  controllers: [DocumentsHttpController, ApplicationSummaryHttpController],
  providers: [
    ...fieldCipherProviders(GatewayEnvironment),
    ...documentVaultProviders(GatewayEnvironment),
    {
      provide: SummaryPdfRenderer,
      inject: [GatewayEnvironment],
      useFactory: (env: GatewayEnvironment) =>
        new SummaryPdfRenderer({ workers: env.SUMMARY_PDF_WORKERS, waiting: env.SUMMARY_PDF_QUEUE }),
    },
  ],
})
export class DocumentsModule {}
