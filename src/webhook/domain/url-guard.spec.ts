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

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'lets %s through',
    (address) => {
      expect(blockedAddressReason(address)).toBeNull();
    },
  );

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
