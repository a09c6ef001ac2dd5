import { LookupAddress } from 'node:dns';
import {
  blockedAddressReason,
  guardedLookup,
  webhookUrlProblem,
  webhookUrlShapeProblem,
} from './url-guard';

describe('webhook URL guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(blockedAddressReason(address)).toContain(kind);
  });

  // IPv6 forms that carry an IPv4 address are judged by the IPv4 table,
  // whatever the network between does with them.
  it.each([
    ['::ffff:0:127.0.0.1', 'loopback', '127.0.0.1'],
    ['::ffff:0:7f00:1', 'loopback', '127.0.0.1'],
    ['::ffff:0:10.1.2.3', 'private', '10.1.2.3'],
    ['::ffff:0:a9fe:a9fe', 'link-local', '169.254.169.254'],
    ['64:ff9b::7f00:1', 'loopback', '127.0.0.1'],
    ['64:ff9b::192.168.0.1', 'private', '192.168.0.1'],
    ['2002:7f00:1::', 'loopback', '127.0.0.1'],
    ['2002:a9fe:a9fe::1', 'link-local', '169.254.169.254'],
    ['2002:c0a8:101:1::1', 'private', '192.168.1.1'],
    ['2002:6440:1::', 'CGNAT', '100.64.0.1'],
    ['::10.0.0.1', 'private', '10.0.0.1'],
    ['::a9fe:a9fe', 'link-local', '169.254.169.254'],
    ['::ffff:192.0.2.1', 'documentation', '192.0.2.1'],
    ['2002:c612:1::', 'benchmarking', '198.18.0.1'],
  ])('refuses %s (%s, it carries %s)', (address, kind, carried) => {
    const reason = blockedAddressReason(address);
    expect(reason).toContain(kind);
    expect(reason).toContain(carried);
  });

  it.each([
    ['64:ff9b:1::7f00:1', 'local-use NAT64'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'local-use NAT64'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.255', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['2001:db8:ffff:ffff::', 'documentation'],
    ['100::1', 'discard-only'],
    ['100::ffff:ffff:ffff:ffff', 'discard-only'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(blockedAddressReason(address)).toContain(kind);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.0.3.1',
    '198.20.0.1',
    '198.51.101.1',
    '203.0.114.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '64:ff9b:2::1',
    '2001:db9::1',
    '100:0:0:1::1',
  ])('lets %s through', (address) => {
    expect(blockedAddressReason(address)).toBeNull();
  });

  it('takes only http and https URLs without credentials', () => {
    expect(webhookUrlShapeProblem('https://hooks.example.com/in')).toBeNull();
    expect(webhookUrlShapeProblem('http://hooks.example.com:8080/in?x=1')).toBeNull();
    expect(webhookUrlShapeProblem('file:///etc/passwd')).toMatch(/http/);
    expect(webhookUrlShapeProblem('ftp://example.com/')).toMatch(/http/);
    expect(webhookUrlShapeProblem('gopher://example.com/')).toMatch(/http/);
    expect(webhookUrlShapeProblem('not a url')).toMatch(/URL/);
    expect(webhookUrlShapeProblem('https://user:pw@example.com/')).toMatch(/password/);
  });

  it('refuses a host when any of its addresses is refused', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    expect(await webhookUrlProblem('https://mixed.example/', false, resolve)).toMatch(/private/);
    expect(await webhookUrlProblem('https://mixed.example/', true, resolve)).toBeNull();
  });

  it('checks IP literals without resolving them', async () => {
    const resolve = async () => {
      throw new Error('must not resolve');
    };
    expect(await webhookUrlProblem('http://169.254.169.254/latest', false, resolve)).toMatch(
      /link-local/,
    );
    expect(await webhookUrlProblem('http://[::ffff:127.0.0.1]:80/', false, resolve)).toMatch(
      /loopback/,
    );
    for (const literal of ['[64:ff9b:1::7f00:1]', '[2002:7f00:1::]', '[::ffff:0:127.0.0.1]']) {
      expect(await webhookUrlProblem(`http://${literal}/`, false, resolve)).toMatch(
        /must not point at/,
      );
    }
    expect(await webhookUrlProblem('http://93.184.216.34/', false, resolve)).toBeNull();
  });

  it('refuses a host that does not resolve', async () => {
    const resolve = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await webhookUrlProblem('https://nowhere.invalid/', false, resolve)).toMatch(
      /does not resolve/,
    );
  });

  describe('at connection time', () => {
    const lookupWith = (addresses: LookupAddress[], options: { all?: boolean; family?: number }) =>
      new Promise<{ error: Error | null; result: unknown[] }>((resolve) =>
        guardedLookup(async () => addresses)(
          'hooks.example',
          options as never,
          (error, ...result) => resolve({ error, result }),
        ),
      );

    it('hands public addresses to the connection, one or all as asked', async () => {
      const addresses = [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::248', family: 6 },
      ];
      expect(await lookupWith(addresses, { all: true })).toEqual({
        error: null,
        result: [addresses],
      });
      expect(await lookupWith(addresses, { family: 6 })).toEqual({
        error: null,
        result: ['2606:2800:220:1::248', 6],
      });
    });

    it('fails the connection when the name now points inside', async () => {
      const { error } = await lookupWith(
        [
          { address: '93.184.216.34', family: 4 },
          { address: '169.254.169.254', family: 4 },
        ],
        { all: true },
      );
      expect(error?.message).toMatch(
        /^Refused to connect to hooks\.example: 169\.254\.169\.254 is a link-local/,
      );
    });
  });
});
