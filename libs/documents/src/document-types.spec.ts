import { DocumentRefusal, imageSize, imageSizeRefusal, sniffContentType } from './document-types';
import { jpegOf, pngOf } from './documents.testing';

describe('sniffContentType', () => {
  it('names PDF, JPEG and PNG from their first bytes', () => {
    expect(sniffContentType(Buffer.from('%PDF-1.7\n...'))).toBe('application/pdf');
    expect(sniffContentType(jpegOf(10, 10))).toBe('image/jpeg');
    expect(sniffContentType(pngOf(10, 10))).toBe('image/png');
  });

  it('refuses anything else, whatever it would be called: an executable, a script, text', () => {
    expect(sniffContentType(Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'))).toBeNull();
    expect(sniffContentType(Buffer.from('\x7fELF\x02\x01\x01\x00', 'latin1'))).toBeNull();
    expect(sniffContentType(Buffer.from('<html><script>alert(1)</script>'))).toBeNull();
    expect(sniffContentType(Buffer.from(' %PDF-1.7'))).toBeNull();
  });

  it('waits for more bytes only while they could still begin one of the types', () => {
    expect(sniffContentType(Buffer.from([0x89, 0x50]))).toBeUndefined();
    expect(sniffContentType(Buffer.from('%PD'))).toBeUndefined();
    expect(sniffContentType(Buffer.from('%PX'))).toBeNull();
  });
});

describe('imageSize', () => {
  it('reads a PNG’s IHDR and a JPEG’s start of frame after its metadata segments', () => {
    expect(imageSize('image/png', pngOf(640, 480))).toEqual({ width: 640, height: 480 });
    expect(imageSize('image/jpeg', jpegOf(1024, 768, 3))).toEqual({ width: 1024, height: 768 });
  });

  it('asks for more bytes before the size is reached, and says none for a scan with no frame', () => {
    expect(imageSize('image/png', pngOf(640, 480).subarray(0, 20))).toBeUndefined();
    expect(imageSize('image/jpeg', jpegOf(10, 10, 2).subarray(0, 40))).toBeUndefined();
    const noFrame = Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0, 0, 0]);
    expect(imageSize('image/jpeg', noFrame)).toBeNull();
  });

  it('refuses enormous or empty declared sizes, and takes a phone photo', () => {
    expect(imageSizeRefusal({ width: 8064, height: 6048 })).toBeNull();
    for (const size of [
      { width: 100_000, height: 10 },
      { width: 15_000, height: 15_000 },
      { width: 0, height: 100 },
    ]) {
      expect(imageSizeRefusal(size)).toBeInstanceOf(DocumentRefusal);
    }
    expect(imageSizeRefusal({ width: 65_535, height: 65_535 })?.code).toBe('image_too_large');
  });
});
