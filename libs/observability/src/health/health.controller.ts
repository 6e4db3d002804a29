import { Controller, Get, Inject, Logger, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorFunction } from '@nestjs/terminus';
import { HealthReport, NotReadyResponse } from './health-report.dto';

/** The checks GET /health/ready runs; each app provides its own. */
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/**
 * How long one readiness check answers every probe: probes from several orchestrators, or a
 * flood of them, cost one round of checks (and of pings to the services) per period.
 */
export const READINESS_CACHE_MS = 2000;

/**
 * GET /health/live: the process is up and serving HTTP. GET /health/ready: every part the app
 * needs answers; otherwise 503 with the documented error body, whose message names the failing
 * parts and whose details hold terminus's full result. Readiness is checked at most once per
 * READINESS_CACHE_MS; probes in between get the last answer.
 *
 * Each change of readiness is logged once (terminus's own line for every failed check is turned
 * off): "ready", then "not ready: <parts>" as a warning when a part goes away, and "ready again".
 * Before the app was first ready, "not ready" is how it starts, so it is logged at debug only.
 */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  private lastCheck: { at: number; result: Promise<HealthCheckResult> } | null = null;
  private readonly logger = new Logger('Readiness');
  private wasReady = false;
  /** The failing parts the last check found; null while ready. */
  private lastFailing: string | null = 'not checked yet';

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
    summary: 'Readiness: every part the app needs answers within 1 s (checked at most every 2 s)',
    description:
      'The gateway checks its connection to RabbitMQ and pings one instance of each service over ' +
      'its queue; each service checks its database and its own connection to RabbitMQ.',
  })
  @ApiOkResponse({ type: HealthReport, description: 'Every part is up.' })
  @ApiServiceUnavailableResponse({ type: NotReadyResponse, description: 'A part is down; the message names it.' })
  ready(): Promise<HealthCheckResult> {
    const now = Date.now();
    if (this.lastCheck === null || now - this.lastCheck.at >= READINESS_CACHE_MS) {
      this.lastCheck = { at: now, result: this.check() };
    }
    return this.lastCheck.result;
  }

  private async check(): Promise<HealthCheckResult> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check(this.checks);
    } catch (error: unknown) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const failed = error.getResponse() as HealthCheckResult;
      const failing = Object.keys(failed.error ?? {}).join(', ');
      this.observe(failing);
      throw new ServiceUnavailableException({ error: { message: `not ready: ${failing}`, details: failed } });
    }
    this.observe(null);
    return result;
  }

  /** Logs a change of readiness; `failing` names the parts down, null when every part is up. */
  private observe(failing: string | null): void {
    if (failing === this.lastFailing) return;
    this.lastFailing = failing;
    if (failing === null) {
      this.logger.log(this.wasReady ? 'ready again' : 'ready');
      this.wasReady = true;
    } else if (this.wasReady) {
      this.logger.warn(`not ready: ${failing}`);
    } else {
      this.logger.debug(`not ready yet: ${failing}`);
    }
  }
}
