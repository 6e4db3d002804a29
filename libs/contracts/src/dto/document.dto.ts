import { ApiProperty } from '@nestjs/swagger';
import { FORM_DOCUMENT_KINDS, FormDocumentKind } from '../form-presets';

/** Documents an applicant may have at most. */
export const MAX_DOCUMENTS_PER_APPLICANT = 20;

/** The types a document can be: named from its bytes when it was uploaded. */
export const DOCUMENT_CONTENT_TYPE_NAMES = ['application/pdf', 'image/jpeg', 'image/png'] as const;

/** A document an applicant uploaded on the form. Its bytes: GET .../documents/:document_id/content. */
export class DocumentRepresentation {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  id: number;

  @ApiProperty({ enum: FORM_DOCUMENT_KINDS, example: 'photo_id' })
  kind: FormDocumentKind;

  @ApiProperty({ description: 'The name the file had on the applicant’s device, without any folder.', example: 'license.jpg' })
  file_name: string;

  @ApiProperty({
    enum: DOCUMENT_CONTENT_TYPE_NAMES,
    description: 'What the file’s bytes are (never what its name or the browser said).',
    example: 'image/jpeg',
  })
  content_type: string;

  @ApiProperty({ type: 'integer', description: 'Bytes, at most 10 MB.', example: 482133 })
  size: number;

  @ApiProperty({ description: 'ISO 8601, seconds precision, numeric offset.', example: '2026-11-22T14:03:09+00:00' })
  uploaded_at: string;

  @ApiProperty({
    description: 'Hex SHA-256 of the bytes: the content downloaded has this digest.',
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  })
  sha256: string;
}

export class DocumentListResponse {
  @ApiProperty({ type: [DocumentRepresentation], maxItems: MAX_DOCUMENTS_PER_APPLICANT, description: 'Oldest first.' })
  documents: DocumentRepresentation[];
}

/** What the form sends once a file is stored: its record to keep. */
export interface StoredDocumentFields {
  /** The GridFS file (hex ObjectId) in the applications database's `documents` bucket. */
  file_id: string;
  kind: FormDocumentKind;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
}

const isControl = (character: string) => {
  const code = character.codePointAt(0)!;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
};

const EXTENSIONS: Record<string, string> = { 'application/pdf': '.pdf', 'image/jpeg': '.jpg', 'image/png': '.png' };

/**
 * The name a file is kept and listed under: its last path segment, without control characters,
 * at most 200 characters, and "document" when nothing is left.
 */
export function documentFileName(given: string): string {
  const name = [...given]
    .filter((character) => !isControl(character))
    .join('')
    .split(/[\\/]/)
    .pop()!
    .trim()
    .slice(-200);
  return name === '' || name === '.' || name === '..' ? 'document' : name;
}

/**
 * A Content-Disposition attachment header for a download: the name in ASCII with anything else
 * replaced (filename=), the full name percent-encoded (filename*=), and an extension that says
 * what the bytes are, so that no name makes a browser open the file as something else.
 */
export function attachmentDisposition(fileName: string, contentType: string): string {
  const extension = EXTENSIONS[contentType] ?? '';
  const base = documentFileName(fileName);
  const hasExtension = base.toLowerCase().endsWith(extension) || (extension === '.jpg' && /\.jpeg$/i.test(base));
  const name = hasExtension ? base : `${base}${extension}`;
  const ascii = name.replace(/[^A-Za-z0-9._ -]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
