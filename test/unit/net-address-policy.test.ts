// Which addresses the outbound guard may contact, and how host names become the one checked address.
import { expect } from 'chai';
import {
  denialOf,
  embeddedIpv4,
  isPublicAddress,
  numericHostAddress,
} from '../../shared/platform/net/address-policy.js';
import { checkHost } from '../../shared/platform/net/checked-host.js';
import { parseIpv4Loose, parseIpv6, formatIpv6 } from '../../shared/platform/net/ip-address.js';
import { OutboundRefused } from '../../shared/platform/net/outbound-refused.js';
import { enterDoor } from '../helpers/fake-host.js';
import { testCertificates } from '../helpers/test-ca.js';

const DENIED: [string, string][] = [
  ['0.0.0.0', 'this_network'],
  ['0.1.2.3', 'this_network'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'shared'],
  ['100.100.100.200', 'shared'],
  ['100.127.255.254', 'shared'],
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['169.254.0.1', 'link_local'],
  ['169.254.169.254', 'link_local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'ietf_protocol'],
  ['192.0.2.10', 'documentation'],
  ['192.88.99.1', 'relay'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.200', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fc00::1', 'unique_local'],
  ['fd12:3456::1', 'unique_local'],
  ['fd00:ec2::254', 'unique_local'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['febf::1', 'link_local'],
  ['fec0::1', 'site_local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ['2001:2::1', 'benchmarking'],
  ['100::1', 'discard'],
  ['64:ff9b:1::1', 'nat64_local'],
  ['3fff::1', 'documentation'],
  ['4000::1', 'not_global'],
  ['not an address', 'unparseable'],
];

const EMBEDDED: [string, string, string][] = [
  ['::ffff:127.0.0.1', 'loopback', '127.0.0.1'],
  ['::ffff:7f00:1', 'loopback', '127.0.0.1'],
  ['::ffff:169.254.169.254', 'link_local', '169.254.169.254'],
  ['::ffff:10.0.0.1', 'private', '10.0.0.1'],
  ['::127.0.0.1', 'loopback', '127.0.0.1'],
  ['::10.1.1.1', 'private', '10.1.1.1'],
  ['64:ff9b::127.0.0.1', 'loopback', '127.0.0.1'],
  ['64:ff9b::a9fe:a9fe', 'link_local', '169.254.169.254'],
  ['2002:c0a8:0101::1', 'private', '192.168.1.1'],
  ['2002:7f00:1::', 'loopback', '127.0.0.1'],
];

const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.215.14',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '169.253.255.255',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a04:4e42::1',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:0808:0808::1',
];

describe('address policy', () => {
  for (const [address, kind] of DENIED) {
    it(`denies ${address} as ${kind}`, () => {
      expect(denialOf(address)?.kind).to.equal(kind);
      expect(isPublicAddress(address)).to.equal(false);
    });
  }

  for (const [address, kind, inner] of EMBEDDED) {
    it(`judges ${address} by the IPv4 address it carries (${inner})`, () => {
      expect(denialOf(address)).to.include({ kind, embedded: inner });
    });
  }

  it('allows public unicast, including edges next to denied ranges and public embedded IPv4', () => {
    for (const address of PUBLIC) expect(denialOf(address), address).to.equal(null);
  });

  it('names the range that matched', () => {
    expect(denialOf('172.20.1.1')).to.deep.equal({ kind: 'private', cidr: '172.16.0.0/12', embedded: null });
  });
});

describe('numeric host spellings', () => {
  const LOOPBACK_SPELLINGS = [
    '127.0.0.1',
    '2130706433',
    '0177.0.0.1',
    '0x7f.1',
    '0x7f.0.0.1',
    '127.1',
    '127.0.1',
    '0x7f000001',
  ];
  for (const spelling of LOOPBACK_SPELLINGS) {
    it(`reads ${spelling} as 127.0.0.1`, () => {
      expect(numericHostAddress(spelling)).to.equal('127.0.0.1');
    });
  }

  it('reads the metadata address however it is spelled', () => {
    for (const spelling of ['169.254.169.254', '2852039166', '0xa9fea9fe', '0251.0376.0251.0376', '169.254.43518']) {
      expect(numericHostAddress(spelling), spelling).to.equal('169.254.169.254');
    }
  });

  it('reads IPv6 literals with or without brackets', () => {
    expect(numericHostAddress('[::1]')).to.equal('::1');
    expect(numericHostAddress('[0:0:0:0:0:ffff:7f00:1]')).to.equal('::ffff:7f00:1');
  });

  it('leaves real names and impossible numbers alone', () => {
    for (const name of ['example.com', '1.2.3.4.example', '0x7g.1', '09.1.1.1', '256.1.1.1.1', '1.2.3.256']) {
      expect(numericHostAddress(name), name).to.equal(null);
    }
    expect(parseIpv4Loose('4294967296')).to.equal(null);
  });

  it('parses IPv6 in its compressed, full and dotted forms', () => {
    expect(parseIpv6('::')).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6('1:2:3:4:5:6:1.2.3.4')).to.deep.equal([1, 2, 3, 4, 5, 6, 0x102, 0x304]);
    expect(formatIpv6(parseIpv6('2001:db8:0:0:1:0:0:1') as number[])).to.equal('2001:db8::1:0:0:1');
    for (const bad of [':::', '1::2::3', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', '12345::', ':1.2.3.4', '::1.2.3']) {
      expect(parseIpv6(bad), bad).to.equal(null);
    }
  });
});

describe('embeddedIpv4', () => {
  it('gives the IPv4 address an IPv6 one carries, where the packets go', () => {
    expect(embeddedIpv4('::ffff:198.51.99.9')).to.equal('198.51.99.9');
    expect(embeddedIpv4('::ffff:c633:6309')).to.equal('198.51.99.9');
    expect(embeddedIpv4('64:ff9b::c633:6309')).to.equal('198.51.99.9');
    expect(embeddedIpv4('2002:c633:6309::1')).to.equal('198.51.99.9');
  });

  it('gives null for plain IPv6, IPv4, :: and ::1', () => {
    for (const address of ['2606:4700::6810:1', '93.184.215.14', '::', '::1', 'banana']) {
      expect(embeddedIpv4(address), address).to.equal(null);
    }
  });
});

describe('checkHost', () => {
  async function reasonOf(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
    } catch (error) {
      expect(error).to.be.instanceOf(OutboundRefused);
      return (error as OutboundRefused).reason;
    }
    return 'accepted';
  }

  it('accepts a name whose every answer is public, picks the first and gives them all', async () => {
    const checked = await checkHost('Game.Example.com.', {
      resolve: async () => ['93.184.215.14', '2606:4700::6810:1', '2606:4700::6810:2%eth0'],
    });
    expect(checked).to.deep.equal({
      hostname: 'game.example.com',
      address: '93.184.215.14',
      addresses: ['93.184.215.14', '2606:4700::6810:1', '2606:4700::6810:2'],
      port: null,
      literal: false,
    });
  });

  it('refuses a name when one answer among public ones is private, loopback or metadata', async () => {
    for (const bad of ['192.168.0.10', '127.0.0.1', '169.254.169.254', '::ffff:10.0.0.1', 'fe80::1%2']) {
      const resolve = async () => ['93.184.215.14', bad, '1.1.1.1'];
      expect(await reasonOf(checkHost('mixed.example.com', { resolve })), bad).to.equal('address_denied');
    }
  });

  it('refuses an answer that is no address at all', async () => {
    expect(await reasonOf(checkHost('odd.example.com', { resolve: async () => ['banana'] }))).to.equal(
      'address_denied',
    );
  });

  it('judges an IP literal by value without asking the resolver', async () => {
    let asked = false;
    const resolve = async () => {
      asked = true;
      return ['1.1.1.1'];
    };
    expect(await reasonOf(checkHost('10.0.0.1', { resolve }))).to.equal('address_denied');
    expect(await checkHost('[2606:4700::1]', { resolve })).to.include({ address: '2606:4700::1', literal: true });
    expect(asked).to.equal(false);
  });

  it('answers every address a door entry lists, connecting to the first with its port', async () => {
    const { caFile } = await testCertificates();
    const leave = enterDoor('several.jogatina.test', '127.0.0.1:8443|127.0.0.2|[::1]', caFile);
    try {
      expect(await checkHost('several.jogatina.test')).to.deep.equal({
        hostname: 'several.jogatina.test',
        address: '127.0.0.1',
        addresses: ['127.0.0.1', '127.0.0.2', '::1'],
        port: 8443,
        literal: false,
      });
    } finally {
      leave();
    }
    // The door lets loopback through, nothing else private, whichever answer it is.
    const leavePrivate = enterDoor('half-private.jogatina.test', '127.0.0.1:8443|10.0.0.1', caFile);
    try {
      expect(await reasonOf(checkHost('half-private.jogatina.test'))).to.equal('address_denied');
    } finally {
      leavePrivate();
    }
  });

  it('gives up on a resolver that outlives the time cap', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const resolve = () => new Promise<string[]>(() => undefined);
    expect(await reasonOf(checkHost('slow.example.com', { resolve, signal: controller.signal }))).to.equal('timeout');
  });
});
