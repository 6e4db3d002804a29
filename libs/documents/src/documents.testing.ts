import { deflateSync } from 'node:zlib';

/** A PNG that declares `width` × `height`, with one tiny (not matching) data chunk: enough for the checks. */
export function pngOf(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG's markers up to its start of frame, declaring `width` × `height`, after `appSegments` APPn segments. */
export function jpegOf(width: number, height: number, appSegments = 1): Buffer {
  const parts = [Buffer.from([0xff, 0xd8])];
  for (let i = 0; i < appSegments; i++) {
    const payload = Buffer.alloc(30, i);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(payload.length + 2);
    parts.push(Buffer.from([0xff, 0xe0 + i]), length, payload);
  }
  const frame = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  parts.push(
    frame,
    Buffer.from([0xff, 0xda, 0x00, 0x0c, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0]),
    Buffer.alloc(64, 0x55),
    Buffer.from([0xff, 0xd9]),
  );
  return Buffer.concat(parts);
}
