import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Server as GrpcServer, ServerCredentials, ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import { decodeTraceExport } from './otlp-protobuf';

/** One span as an OTLP/HTTP JSON export carries it, with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1, as a collector would be: it takes `POST /v1/traces`
 * in the protobuf encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf, the default) and the JSON
 * one (http/json), and keeps every span. Bodies of another kind are kept aside, undecoded.
 * `listenGrpc` adds OTLP/gRPC (OTEL_EXPORTER_OTLP_PROTOCOL=grpc) on a port of its own.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** The content types of the exports taken, each once. */
  readonly encodings = new Set<string>();
  readonly otherBodies: Array<{ contentType: string; body: Buffer }> = [];
  private server?: Server;
  private grpc?: { server: GrpcServer; port: number };

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    receiver.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const contentType = String(request.headers['content-type'] ?? '');
        const decode =
          request.url !== '/v1/traces'
            ? undefined
            : contentType.startsWith('application/json')
              ? () => JSON.parse(body.toString())
              : contentType.startsWith('application/x-protobuf')
                ? () => decodeTraceExport(body)
                : undefined;
        if (decode) {
          receiver.encodings.add(contentType);
          receiver.take(decode());
        } else receiver.otherBodies.push({ contentType, body });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    return receiver;
  }

  /**
   * Takes OTLP/gRPC exports too, the TraceService's one method served with the bytes as they
   * come (the protobuf request, decoded as the HTTP one is); resolves to its endpoint.
   */
  async listenGrpc(): Promise<string> {
    if (!this.grpc) {
      const server = new GrpcServer();
      const bytes = (buffer: Buffer) => buffer;
      server.addService(
        {
          Export: {
            path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
            requestStream: false,
            responseStream: false,
            requestSerialize: bytes,
            requestDeserialize: bytes,
            // An empty ExportTraceServiceResponse: every span accepted.
            responseSerialize: () => Buffer.alloc(0),
            responseDeserialize: bytes,
          },
        },
        {
          Export: (call: ServerUnaryCall<Buffer, Buffer>, answer: sendUnaryData<Buffer>) => {
            this.encodings.add('application/grpc');
            this.take(decodeTraceExport(call.request));
            answer(null, Buffer.alloc(0));
          },
        },
      );
      const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
          error ? reject(error) : resolve(bound),
        ),
      );
      this.grpc = { server, port };
    }
    return `http://127.0.0.1:${this.grpc.port}`;
  }

  /** OTEL_EXPORTER_OTLP_ENDPOINT for the apps. */
  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** The spans of one trace received so far. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async close(): Promise<void> {
    this.grpc?.server.forceShutdown();
    this.server?.closeAllConnections();
    this.server?.close();
    if (this.server?.listening) await once(this.server, 'close');
  }

  private take(request: {
    resourceSpans?: Array<{
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: Array<{ spans?: Array<Record<string, any>> }>;
    }>;
  }): void {
    for (const { resource, scopeSpans = [] } of request.resourceSpans ?? []) {
      const service = String(attributesOf(resource?.attributes)['service.name']);
      for (const { spans = [] } of scopeSpans) {
        for (const span of spans) {
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            links: (span.links ?? []).map(({ traceId, spanId }: ReceivedSpan['links'][number]) => ({ traceId, spanId })),
          });
        }
      }
    }
  }
}

function attributesOf(attributes: KeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]),
  );
}
