import { Logger } from '@nestjs/common';

/**
 * A purge of what has outlived its use, run on a timer of its own in every instance: FerretDB has
 * no TTL index, so each service removes its expired documents itself. Started at boot, outside
 * any request; a purge that fails is logged and the next one tries again. Instances that purge
 * at once remove each document once.
 */
export class BackgroundPurge {
  private readonly logger: Logger;
  private timer?: NodeJS.Timeout;

  /** `what` names the documents in the log; `purge` removes them and says how many. */
  constructor(
    private readonly what: string,
    private readonly everyMs: number,
    private readonly purge: () => Promise<number>,
  ) {
    this.logger = new Logger(`Purge ${what}`);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.run(), this.everyMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One purge now; 0 when it failed. */
  async run(): Promise<number> {
    try {
      return await this.purge();
    } catch (error) {
      this.logger.warn(`removing ${this.what} failed: ${String(error)}`);
      return 0;
    }
  }
}
