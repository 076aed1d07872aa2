import { describe, expect, it } from 'vitest';
import { addressRange, isAddressLiteral, isPublicAddress } from './webhook-address.js';
import {
  checkWebhookUrl,
  resolveWithSystem,
  WebhookRefusedError,
  type ResolveHost,
} from './webhook-url.js';

const PUBLIC_V4 = '93.184.215.14';
const strict = { allowPrivateNetworks: false };
const resolvingTo =
  (...addresses: string[]): ResolveHost =>
  () =>
    Promise.resolve(addresses);

describe('the address rule', () => {
  it('lets global unicast addresses through', () => {
    for (const address of [PUBLIC_V4, '8.8.8.8', '2001:4860:4860::8888', '[2606:4700::1111]'])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    // IPv4-mapped IPv6 is read as the IPv4 address it carries.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    // Translated forms reach whatever the network maps them to: refused.
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
  ])('refuses %s (%s)', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
  });

  it('tells address literals from host names', () => {
    expect(isAddressLiteral('127.0.0.1')).toBe(true);
    expect(isAddressLiteral('[::ffff:7f00:1]')).toBe(true);
    expect(isAddressLiteral('localhost')).toBe(false);
    expect(isAddressLiteral('hooks.example.com')).toBe(false);
  });
});

describe('a webhook URL as it is created', () => {
  async function refusal(url: string, resolve: ResolveHost = resolvingTo(PUBLIC_V4)) {
    const error = await checkWebhookUrl(url, strict, resolve).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error, url).toBeInstanceOf(WebhookRefusedError);
    return (error as Error).message;
  }

  it('refuses literal loopback, private and link-local addresses, v4 and v6, mapped or not', async () => {
    expect(await refusal('http://127.0.0.1:8080/hook')).toContain('127.0.0.1 is in a loopback');
    expect(await refusal('http://10.1.2.3/hook')).toContain('private');
    expect(await refusal('http://192.168.0.10/hook')).toContain('private');
    expect(await refusal('http://169.254.169.254/latest/meta-data')).toContain('link-local');
    expect(await refusal('http://[::1]:9000/')).toContain('loopback');
    expect(await refusal('http://[fe80::1]/')).toContain('link-local');
    expect(await refusal('http://[fd00::1]/')).toContain('private');
    expect(await refusal('http://[::ffff:127.0.0.1]/')).toContain('loopback');
    // The URL parser reads these as 127.0.0.1 too.
    expect(await refusal('http://2130706433/')).toContain('loopback');
    expect(await refusal('http://0x7f.1/')).toContain('loopback');
  });

  it('refuses a host name that resolves to a private address, or to any among public ones', async () => {
    const message = await refusal('https://hooks.example.test/a2a', resolvingTo('127.0.0.1'));
    expect(message).toContain('hooks.example.test (127.0.0.1) is in a loopback range');
    expect(message).toContain('push.allowPrivateNetworks');
    expect(
      await refusal('https://mixed.example.test/', resolvingTo(PUBLIC_V4, '10.0.0.7')),
    ).toContain('mixed.example.test (10.0.0.7)');
  });

  it('refuses localhost as the system resolves it', async () => {
    expect(await refusal('http://localhost:8080/', resolveWithSystem)).toMatch(
      /localhost \((127\.0\.0\.1|::1)\)/,
    );
  });

  it('refuses what is not an http(s) URL, a URL with credentials, and a host that does not resolve', async () => {
    expect(await refusal('not a url')).toContain('is not a valid URL');
    expect(await refusal('ftp://files.example.test/')).toContain('must be http or https');
    expect(await refusal('file:///etc/passwd')).toContain('must be http or https');
    expect(await refusal('https://user:secret@hooks.example.test/')).toContain(
      'user name or password',
    );
    const nowhere: ResolveHost = () => Promise.reject(new Error('ENOTFOUND'));
    expect(await refusal('https://nowhere.example.test/', nowhere)).toContain('does not resolve');
  });

  it('accepts a public host, and anything when the operator allows private networks', async () => {
    const url = await checkWebhookUrl(
      'https://hooks.example.test/a2a?x=1',
      strict,
      resolvingTo(PUBLIC_V4),
    );
    expect(url.href).toBe('https://hooks.example.test/a2a?x=1');
    const allowed = { allowPrivateNetworks: true };
    await expect(checkWebhookUrl('http://127.0.0.1:9/hook', allowed)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('http://[::1]:9/hook', allowed)).resolves.toBeInstanceOf(URL);
  });
});
