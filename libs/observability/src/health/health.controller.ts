import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorFunction } from '@nestjs/terminus';
import { HealthReport, NotReadyResponse } from './health-report.dto';

/** The checks GET /health/ready runs; each app provides its own. */
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/**
 * GET /health/live: the process is up and serving HTTP. GET /health/ready: every part the app
 * needs answers; otherwise 503 with the documented error body, whose message names the failing
 * parts and whose details hold terminus's full result.
 */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    @Inject(READINESS_CHECKS) private readonly checks: HealthIndicatorFunction[],
  ) {}

  @Get('live')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ operationId: 'live', summary: 'Liveness: the process is up and serves HTTP' })
  @ApiOkResponse({ type: HealthReport, description: 'Always, while the process serves.' })
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({
    operationId: 'ready',
    summary: 'Readiness: every part the app needs answers within 1 s',
    description:
      'The gateway checks its connection to RabbitMQ and pings one instance of each service over ' +
      'its queue; each service checks its database and its own connection to RabbitMQ.',
  })
  @ApiOkResponse({ type: HealthReport, description: 'Every part is up.' })
  @ApiServiceUnavailableResponse({ type: NotReadyResponse, description: 'A part is down; the message names it.' })
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check(this.checks);
    } catch (error: unknown) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const result = error.getResponse() as HealthCheckResult;
      const failing = Object.keys(result.error ?? {}).join(', ');
      throw new ServiceUnavailableException({ error: { message: `not ready: ${failing}`, details: result } });
    }
  }
}
