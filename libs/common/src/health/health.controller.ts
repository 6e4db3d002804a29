import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorFunction } from '@nestjs/terminus';

/** The checks GET /health/ready runs; each app provides its own. */
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/**
 * GET /health/live: the process is up and serving HTTP. GET /health/ready: every part the app
 * needs answers; otherwise 503 with the documented error body, whose message names the failing
 * parts and whose details hold terminus's full result.
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    @Inject(READINESS_CHECKS) private readonly checks: HealthIndicatorFunction[],
  ) {}

  @Get('live')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
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
