import { describe, expect, it } from 'vitest';
import { addressAllowed, isPublicAddress } from '../src/address-policy.ts';
import { checkEndpointUrl } from '../src/endpoint-url.ts';

describe('address policy (SSRF guard)', () => {
  const refused = [
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '127.0.0.1',
    '0.0.0.0',
    '169.254.169.254', // cloud metadata
    '100.100.100.200', // Alibaba metadata (carrier-grade NAT range)
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254', // AWS metadata over IPv6
    'fc00::1',
    '::ffff:127.0.0.1', // IPv4-mapped loopback
    '::ffff:a9fe:a9fe', // IPv4-mapped 169.254.169.254, hex form
    '64:ff9b::a9fe:a9fe', // NAT64 of the metadata address
    'not-an-ip',
  ];
  for (const ip of refused) {
    it(`refuses ${ip}`, () => {
      expect(isPublicAddress(ip)).toBe(false);
      expect(addressAllowed(ip, 'example.com', true)).toBe(false);
    });
  }

  for (const ip of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
    it(`accepts public ${ip}`, () => {
      expect(isPublicAddress(ip)).toBe(true);
    });
  }

  it('allows loopback only for the localhost names and only with the allowance on', () => {
    expect(addressAllowed('127.0.0.1', 'localhost', true)).toBe(true);
    expect(addressAllowed('::1', 'localhost', true)).toBe(true);
    expect(addressAllowed('127.0.0.1', '127.0.0.1', true)).toBe(true);
    expect(addressAllowed('127.0.0.1', 'localhost', false)).toBe(false);
    expect(addressAllowed('127.0.0.1', 'evil.example', true)).toBe(false);
    expect(addressAllowed('10.0.0.1', 'localhost', true)).toBe(false);
  });
});

describe('endpoint URL check', () => {
  const resolveTo = (addresses: string[]) => async () => addresses;
  const check = (url: string, allowLocalhost = false, addresses = ['93.184.215.14']) =>
    checkEndpointUrl(url, { allowLocalhost, resolve: resolveTo(addresses) });

  it('accepts an https URL whose host resolves to public addresses', async () => {
    expect(await check('https://hooks.example.com/idv')).toEqual({
      ok: true,
      url: 'https://hooks.example.com/idv',
    });
  });

  const cases: [string, string, boolean, string[]?][] = [
    ['plain http', 'http://hooks.example.com/idv', true],
    ['not a URL', 'hooks.example.com/idv', true],
    ['credentials in the URL', 'https://user:pass@hooks.example.com/', true],
    ['a host resolving to a private address', 'https://internal.example.com/', true, ['10.0.0.5']],
    [
      'a host with one private address among public ones',
      'https://mixed.example.com/',
      true,
      ['8.8.8.8', '192.168.0.2'],
    ],
    ['a host resolving to nothing', 'https://nothing.example.com/', true, []],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data/', true],
    ['a decimal-encoded loopback', 'https://2130706433/', false],
    ['localhost without the allowance', 'http://localhost:8080/', false],
    ['127.0.0.1 without the allowance', 'http://127.0.0.1:8080/', false],
    ['another loopback name with the allowance', 'http://127.0.0.2:8080/', true],
    ['ftp', 'ftp://hooks.example.com/', true],
  ];
  for (const [name, url, allow, addresses] of cases) {
    it(`refuses ${name}`, async () => {
      const result = await check(url, allow, addresses);
      expect(result.ok).toBe(false);
    });
  }

  it('accepts http://localhost and http://127.0.0.1 with the allowance', async () => {
    expect((await check('http://localhost:9999/hook', true, ['127.0.0.1', '::1'])).ok).toBe(true);
    expect((await check('http://127.0.0.1:9999/hook', true)).ok).toBe(true);
  });

  it('refuses a host that fails to resolve', async () => {
    const result = await checkEndpointUrl('https://no-such-host.invalid/', {
      allowLocalhost: false,
      resolve: async () => {
        throw new Error('ENOTFOUND');
      },
    });
    expect(result).toEqual({ ok: false, reason: 'host no-such-host.invalid does not resolve' });
  });
});
