import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { metricsRegistry } from './metrics';

/** GET /metrics: everything in the registry, for Prometheus to scrape. */
@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  @Get()
  @ApiOperation({ operationId: 'metrics', summary: 'Metrics in the Prometheus text format' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ schema: { type: 'string' }, description: 'Every metric of the process.' })
  @Header('Content-Type', metricsRegistry.contentType)
  @Header('Cache-Control', 'no-store')
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
