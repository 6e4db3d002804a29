import { canonicalMailbox } from './mailbox';

describe('canonicalMailbox', () => {
  it('counts an address however its case is written', () => {
    expect(canonicalMailbox(' Ada@Example.TEST ')).toBe('ada@example.test');
  });

  it('drops a plus-tag, on every domain', () => {
    expect(canonicalMailbox('ada+form-1@example.test')).toBe('ada@example.test');
    expect(canonicalMailbox('ada+a+b@example.test')).toBe('ada@example.test');
    // A local part that is only a tag stays itself rather than becoming empty.
    expect(canonicalMailbox('+x@example.test')).toBe('+x@example.test');
  });

  it('drops the dots of a provider that ignores them, and counts its other domain with it', () => {
    expect(canonicalMailbox('a.d.a@gmail.com')).toBe('ada@gmail.com');
    expect(canonicalMailbox('A.da+x@googlemail.com')).toBe('ada@gmail.com');
    expect(canonicalMailbox('a.da@example.test')).toBe('a.da@example.test');
  });

  it('counts a domain’s U-label and A-label forms, and a trailing dot, as one', () => {
    expect(canonicalMailbox('ada@bücher.example')).toBe('ada@xn--bcher-kva.example');
    expect(canonicalMailbox('ada@XN--BCHER-KVA.example.')).toBe('ada@xn--bcher-kva.example');
    expect(canonicalMailbox('ada@BÜCHER.example')).toBe('ada@xn--bcher-kva.example');
  });
});
