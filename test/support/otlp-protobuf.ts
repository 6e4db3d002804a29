/**
 * Reads an OTLP/HTTP protobuf export (OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf, the SDK's
 * default) into the shape of its JSON encoding, so that one receiver takes both. Only what the
 * tests read is decoded (opentelemetry-proto's trace/v1 and common/v1 field numbers): resources'
 * attributes, and spans' ids, name, kind, attributes and links; other fields are skipped.
 */

/** One field of a message: its number, and its value as the wire type gives it. */
interface Field {
  number: number;
  /** A varint as a bigint, a length-delimited field's bytes, or a fixed-width field's bytes. */
  value: bigint | Buffer;
}

function readVarint(bytes: Buffer, at: { offset: number }): bigint {
  let result = 0n;
  for (let shift = 0n; ; shift += 7n) {
    if (at.offset >= bytes.length) throw new Error('protobuf: varint past the end');
    const byte = bytes[at.offset++];
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return result;
  }
}

function fields(bytes: Buffer): Field[] {
  const read: Field[] = [];
  const at = { offset: 0 };
  while (at.offset < bytes.length) {
    const tag = Number(readVarint(bytes, at));
    const number = tag >>> 3;
    const take = (length: number) => {
      const value = bytes.subarray(at.offset, at.offset + length);
      at.offset += length;
      return value;
    };
    switch (tag & 7) {
      case 0:
        read.push({ number, value: readVarint(bytes, at) });
        break;
      case 1:
        read.push({ number, value: take(8) });
        break;
      case 2:
        read.push({ number, value: take(Number(readVarint(bytes, at))) });
        break;
      case 5:
        read.push({ number, value: take(4) });
        break;
      default:
        throw new Error(`protobuf: wire type ${tag & 7} of field ${number} is not one OTLP uses`);
    }
  }
  return read;
}

const all = (of: Field[], number: number) => of.filter((field) => field.number === number).map(({ value }) => value);
const bytesOf = (of: Field[], number: number) => all(of, number)[0] as Buffer | undefined;
const hex = (of: Field[], number: number) => bytesOf(of, number)?.toString('hex') ?? '';
const text = (of: Field[], number: number) => bytesOf(of, number)?.toString('utf8') ?? '';

type AnyValue = { stringValue?: string; intValue?: string; boolValue?: boolean; doubleValue?: number };

function anyValue(bytes: Buffer): AnyValue {
  const [field] = fields(bytes);
  if (!field) return {};
  if (field.number === 1) return { stringValue: (field.value as Buffer).toString('utf8') };
  if (field.number === 2) return { boolValue: field.value !== 0n };
  if (field.number === 3) return { intValue: BigInt.asIntN(64, field.value as bigint).toString() };
  if (field.number === 4) return { doubleValue: (field.value as Buffer).readDoubleLE(0) };
  return {};
}

function keyValues(of: Field[], number: number): Array<{ key: string; value: AnyValue }> {
  return all(of, number).map((entry) => {
    const pair = fields(entry as Buffer);
    const value = bytesOf(pair, 2);
    return { key: text(pair, 1), value: value ? anyValue(value) : {} };
  });
}

/** An ExportTraceServiceRequest, as its JSON encoding would carry it (ids in hex). */
export function decodeTraceExport(body: Buffer) {
  return {
    resourceSpans: all(fields(body), 1).map((resourceSpans) => {
      const rs = fields(resourceSpans as Buffer);
      const resource = bytesOf(rs, 1);
      return {
        resource: { attributes: resource ? keyValues(fields(resource), 1) : [] },
        scopeSpans: all(rs, 2).map((scopeSpans) => ({
          spans: all(fields(scopeSpans as Buffer), 2).map((encoded) => {
            const span = fields(encoded as Buffer);
            return {
              traceId: hex(span, 1),
              spanId: hex(span, 2),
              parentSpanId: hex(span, 4),
              name: text(span, 5),
              kind: Number(all(span, 6)[0] ?? 0n),
              attributes: keyValues(span, 9),
              links: all(span, 13).map((link) => {
                const fieldsOfLink = fields(link as Buffer);
                return { traceId: hex(fieldsOfLink, 1), spanId: hex(fieldsOfLink, 2) };
              }),
            };
          }),
        })),
      };
    }),
  };
}
