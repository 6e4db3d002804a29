/** The types of file an applicant may upload, named by what their first bytes are. */
export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** What an upload may be at most. */
export const DOCUMENT_LIMITS = {
  /** 10 MB: a scan or a phone photo of an ID or a pay stub is far smaller. */
  maxBytes: 10 * 1024 * 1024,
  /** An image side: a 48-megapixel phone photo is about 8,000 pixels wide. */
  maxImageSide: 20_000,
  /** Pixels of an image: above this, decoding it (by a reader, a thumbnailer) would take gigabytes. */
  maxImagePixels: 100_000_000,
  /**
   * How far into a file its type and an image's size must be found. A JPEG's size follows its
   * metadata segments (64 KiB each at most); a file that hides it further is not read further.
   */
  maxHeadBytes: 512 * 1024,
} as const;

export type DocumentLimits = typeof DOCUMENT_LIMITS;

/** Why an upload is refused: a stable code and the sentence the applicant is shown. */
export class DocumentRefusal extends Error {
  constructor(
    readonly code: 'unsupported_type' | 'too_large' | 'empty' | 'image_too_large' | 'unreadable_image' | 'too_many',
    message: string,
  ) {
    super(message);
    this.name = 'DocumentRefusal';
  }
}

const PDF = Buffer.from('%PDF-', 'latin1');
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SIGNATURE_BYTES = PNG.length;

/**
 * The type the first bytes of a file show: null when they are none of ours, undefined when there
 * are too few of them to tell yet. The name and the type a browser declares are never asked.
 */
export function sniffContentType(head: Buffer): DocumentContentType | null | undefined {
  if (startsWith(head, PDF)) return 'application/pdf';
  if (startsWith(head, JPEG)) return 'image/jpeg';
  if (startsWith(head, PNG)) return 'image/png';
  const prefixOfOne = [PDF, JPEG, PNG].some((signature) => startsWith(signature, head.subarray(0, signature.length)));
  return head.length < SIGNATURE_BYTES && prefixOfOne ? undefined : null;
}

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * An image's declared size, from a PNG's IHDR chunk or a JPEG's start-of-frame segment: null
 * when the bytes say none (a broken image), undefined when more of the file is needed.
 */
export function imageSize(type: DocumentContentType, head: Buffer): ImageSize | null | undefined {
  if (type === 'image/png') return pngSize(head);
  if (type === 'image/jpeg') return jpegSize(head);
  return null;
}

/** The refusal of an image of that size, or null when it is acceptable. */
export function imageSizeRefusal(size: ImageSize, limits: DocumentLimits = DOCUMENT_LIMITS): DocumentRefusal | null {
  const { width, height } = size;
  if (width < 1 || height < 1)
    return new DocumentRefusal('unreadable_image', 'The image has no size: it is not a readable picture.');
  if (width > limits.maxImageSide || height > limits.maxImageSide || width * height > limits.maxImagePixels) {
    return new DocumentRefusal(
      'image_too_large',
      `The image says it is ${width} × ${height} pixels, more than any photo or scan: upload a smaller picture.`,
    );
  }
  return null;
}

function pngSize(head: Buffer): ImageSize | null | undefined {
  // Signature (8), then the first chunk: length (4), type (4) "IHDR", width (4), height (4).
  if (head.length < 24) return undefined;
  if (head.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** Start-of-frame markers: every SOFn but DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

function jpegSize(head: Buffer): ImageSize | null | undefined {
  let at = 2;
  for (;;) {
    if (at + 4 > head.length) return undefined;
    if (head[at] !== 0xff) return null;
    const marker = head[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    // Start of scan or end of image before any frame: no size is declared.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = head.readUInt16BE(at + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      // length (2), precision (1), height (2), width (2)
      if (at + 9 > head.length) return undefined;
      return { width: head.readUInt16BE(at + 7), height: head.readUInt16BE(at + 5) };
    }
    at += 2 + length;
  }
}

function startsWith(bytes: Buffer, prefix: Buffer): boolean {
  return bytes.length >= prefix.length && bytes.subarray(0, prefix.length).equals(prefix);
}
