import { isForbiddenAddress, REFUSED_RANGES, resolveTarget } from './target-guard';

describe('the webhook target guard', () => {
  it('refuses the first address of every range it lists, those carrying an IPv4 address where it is a refused one', () => {
    const first = (range: string) => range.split('/')[0];
    for (const range of [...REFUSED_RANGES.ipv4, ...REFUSED_RANGES.ipv6])
      expect({ range, refused: isForbiddenAddress(first(range)) }).toEqual({ range, refused: true });
    // Each carrying range with 10.0.0.1 where its IPv4 address goes: ::ffff:a00:1, 64:ff9b::a00:1, 2002:a00:1::, 2001:0:a00:1::
    for (const address of ['::ffff:a00:1', '64:ff9b::a00:1', '2002:a00:1::', '2001:0:a00:1::'])
      expect(isForbiddenAddress(address)).toBe(true);
    expect(REFUSED_RANGES.ipv6CarryingIpv4).toEqual(['::ffff:0:0/96', '64:ff9b::/96', '2002::/16', '2001::/32']);
  });

  it.each([
    '127.0.0.1',
    '127.8.9.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '::127.0.0.1',
    '::7f00:1',
    '::8.8.8.8',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::169.254.169.254',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::808:808',
    '2002:a9fe:a9fe::',
    '2002:7f00:1::1',
    '2002:c0a8:101:1::1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    '2001:0:a00:1::1',
    'fec0::1',
    'fefe::1',
    'fc00::1',
    'febf::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    '100::1',
    'not an address',
  ])('forbids %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each([
    '93.184.216.34',
    '172.32.0.1',
    '8.8.8.8',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    // Teredo: server 65.54.227.120, client 8.8.8.8 (inverted: f7f7:f7f7)
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('allows %s', (address) => expect(isForbiddenAddress(address)).toBe(false));

  it.each(['[::127.0.0.1]', '[64:ff9b::a9fe:a9fe]', '[2002:a9fe:a9fe::]', '[fec0::1]', '[::ffff:169.254.169.254]'])(
    'refuses the URL literal %s with a 422 that names no address',
    async (literal) => {
      const refusal = resolveTarget(`https://${literal}/hooks`, false);
      await expect(refusal).rejects.toThrow(
        'is a loopback, private or link-local address (allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true)',
      );
      await expect(refusal).rejects.toMatchObject({ retryable: false });
    },
  );

  const unresolved =
    'host does not resolve, or resolves to a loopback, private or link-local address (allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true); retry later if its DNS records are new';

  it('answers a name that resolves to a private address as one that does not resolve: retryable, naming neither', async () => {
    const privateName = resolveTarget('https://localhost/hooks', false);
    await expect(privateName).rejects.toThrow(unresolved);
    await expect(privateName).rejects.toMatchObject({ retryable: true });
    const unknownName = resolveTarget('https://no-such-host.invalid/hooks', false);
    await expect(unknownName).rejects.toThrow(unresolved);
    await expect(unknownName).rejects.toMatchObject({ retryable: true });
    await expect(resolveTarget('https://no-such-host.invalid/hooks', true)).rejects.toThrow(unresolved);
  });

  it('gives up on a lookup that does not answer in time, as on one that fails', async () => {
    const hanging = resolveTarget('https://hooks.example.com/hooks', false, {
      lookupAll: () => new Promise(() => undefined),
      timeoutMs: 20,
    });
    await expect(hanging).rejects.toThrow(unresolved);
    await expect(hanging).rejects.toMatchObject({ retryable: true });
  });

  it('refuses loopback and private targets after resolving them, unless allowed', async () => {
    await expect(resolveTarget('https://127.0.0.1/hooks', false)).rejects.toThrow('loopback, private or link-local');
    await expect(resolveTarget('https://[::1]/hooks', false)).rejects.toThrow('loopback, private or link-local');
    await expect(resolveTarget('https://169.254.169.254/latest', false)).rejects.toThrow('loopback, private or link-local');
    await expect(resolveTarget('https://localhost/hooks', true)).resolves.toMatchObject({ address: expect.any(String) });
  });

  it('refuses plain http unless allowed, and connects to the address it checked', async () => {
    await expect(resolveTarget('http://93.184.216.34/hooks', false)).rejects.toThrow(
      'must be an https URL (allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true)',
    );
    await expect(resolveTarget('https://93.184.216.34/hooks', false)).resolves.toMatchObject({
      address: '93.184.216.34',
      family: 4,
    });
    await expect(resolveTarget('http://127.0.0.1:9/hooks', true)).resolves.toMatchObject({ address: '127.0.0.1' });
  });
});
