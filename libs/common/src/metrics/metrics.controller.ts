import { Controller, Get, Header } from '@nestjs/common';
import { metricsRegistry } from './metrics';

/** GET /metrics: everything in the registry, for Prometheus to scrape. */
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('Content-Type', metricsRegistry.contentType)
  @Header('Cache-Control', 'no-store')
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
