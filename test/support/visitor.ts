import { Agent, request } from 'node:http';

/** An HTTP answer, read whole. */
export interface Reply {
  status: number;
  header(name: string): string | null;
  text: string;
}

/**
 * One visitor of a site, as a browser is: its connections kept alive from one request to the
 * next, and shared with no other visitor. Many visitors open new connections all the time, which a
 * balancer spreads over the instances in rotation; one client's pool (fetch's) would keep reusing
 * the connections it opened to the instances that were there first.
 */
export class Visitor {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  get(url: string): Promise<Reply> {
    return this.send('GET', url);
  }

  /** Posts `fields` as a browser posts a form (application/x-www-form-urlencoded). */
  post(url: string, fields: Record<string, string>): Promise<Reply> {
    return this.send('POST', url, new URLSearchParams(fields).toString());
  }

  /** Closes its connections, as a browser closed. */
  leave(): void {
    this.agent.destroy();
  }

  private send(method: string, url: string, body?: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const sent = request(
        url,
        {
          method,
          agent: this.agent,
          headers: body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const header = (name: string) => {
              const value = response.headers[name.toLowerCase()];
              return value === undefined ? null : String(value);
            };
            resolve({ status: response.statusCode ?? 0, header, text: Buffer.concat(chunks).toString() });
          });
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
  }
}
