import { isForbiddenAddress, resolveTarget } from './target-guard';

describe('the webhook target guard', () => {
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
  ])('forbids %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(['93.184.216.34', '172.32.0.1', '8.8.8.8', '2606:4700::1111'])('allows %s', (address) =>
    expect(isForbiddenAddress(address)).toBe(false),
  );

  it('refuses loopback and private targets after resolving them, unless allowed', async () => {
    await expect(resolveTarget('https://localhost/hooks', false)).rejects.toThrow(
      'resolves to a loopback, private or link-local address (allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true)',
    );
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
