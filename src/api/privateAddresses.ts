import * as dns from 'node:dns';
import * as net from 'node:net';

// Where Promptreel may connect for something other than the service: a signed video address and every redirect are
// the service's say, so they may not lead into the user's own network (a router, a cloud metadata endpoint) unless
// the service itself lives there.

/** Addresses no public host has: unspecified, loopback, private, CGNAT, link-local, unique-local, multicast, reserved. */
const NOT_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}
/** NAT64 (RFC 6052): an IPv6-only network reaches every IPv4 host at 64:ff9b::<its address>. */
const NAT64 = new net.BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');

/** Whether an IP address can belong to a host on the public internet (IPv4-mapped and NAT64 ones by their IPv4 address). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 6 && NAT64.check(address, 'ipv6')) return isPublicAddress(embeddedIpv4(address));
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function embeddedIpv4(address: string): string {
  const groups = new URL(`http://[${address}]`).hostname.slice(1, -1).split(':');
  const [high, low] = groups.slice(-2).map((group) => parseInt(group || '0', 16));
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** `localhost` and its subdomains (RFC 6761): this machine, whatever a resolver says. */
function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export const PRIVATE_ADDRESS = 'ERR_PROMPTREEL_PRIVATE_ADDRESS';

/** A connection to a host other than the service's was refused before it was made: the host is in a private network. */
export class PrivateAddressError extends Error {
  readonly code = PRIVATE_ADDRESS;

  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} is at a private address (${address}): not connected`);
    this.name = 'PrivateAddressError';
  }
}

export interface AddressPolicyOptions {
  /** Resolves host names; default `dns.lookup` (the system's resolver). */
  lookup?: net.LookupFunction;
  /** Default `isPublicAddress`; tests count 127.0.0.1 as public to play a public service on this machine. */
  isPublic?: (address: string) => boolean;
}

/**
 * Decides, when a connection to a host other than the service's is made, whether it may be: only to public
 * addresses, unless the service's own host is private (a gateway on the user's network, or on this machine). Names
 * are checked on the addresses they resolve to at connect time, the ones then connected to: a name that resolves to
 * a public address when asked first and to a private one later (DNS rebinding) gains nothing.
 */
export class PrivateAddressPolicy {
  private readonly serviceHost: string;
  private readonly resolver: net.LookupFunction;
  private readonly isPublic: (address: string) => boolean;
  private servicePrivate: Promise<boolean> | undefined;

  constructor(serviceUrl: string, options: AddressPolicyOptions = {}) {
    this.serviceHost = new URL(serviceUrl).hostname.replace(/^\[|\]$/g, '');
    this.resolver = options.lookup ?? dns.lookup;
    this.isPublic = options.isPublic ?? isPublicAddress;
  }

  /**
   * Throws a PrivateAddressError for a host named by an address or as `localhost` that may not be connected to; a
   * host name passes (the lookup checks what it resolves to).
   */
  async checkHost(hostname: string): Promise<void> {
    const host = hostname.replace(/^\[|\]$/g, '');
    if (isLocalName(host)) await this.refuseUnlessServicePrivate(host, host);
    else if (net.isIP(host) && !this.isPublic(host)) await this.refuseUnlessServicePrivate(host, host);
  }

  /** The resolver for connections to other hosts: refuses names that resolve to a private address. */
  readonly lookup: net.LookupFunction = (hostname, options, callback) => {
    this.checkedAddresses(hostname, options).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, options.all ? [] : '', 0),
    );
  };

  private async checkedAddresses(hostname: string, options: dns.LookupOptions): Promise<dns.LookupAddress[]> {
    await this.checkHost(hostname);
    const addresses = await this.resolve(hostname, options);
    // All or nothing: a name with one private address among public ones could be connected to the private one.
    const hidden = addresses.find((entry) => !this.isPublic(entry.address));
    if (hidden) await this.refuseUnlessServicePrivate(hostname, hidden.address);
    return addresses;
  }

  private async refuseUnlessServicePrivate(host: string, address: string): Promise<void> {
    if (!(await this.isServicePrivate())) throw new PrivateAddressError(host, address);
  }

  private isServicePrivate(): Promise<boolean> {
    const classifying = (this.servicePrivate ??= this.classifyService());
    // A service whose name could not be resolved now is asked again next time rather than taken as public for good.
    classifying.catch(() => {
      if (this.servicePrivate === classifying) this.servicePrivate = undefined;
    });
    return classifying.catch(() => false);
  }

  private async classifyService(): Promise<boolean> {
    const host = this.serviceHost;
    if (isLocalName(host)) return true;
    if (net.isIP(host)) return !this.isPublic(host);
    const addresses = await this.resolve(host, {});
    return addresses.some((entry) => !this.isPublic(entry.address));
  }

  private resolve(hostname: string, options: dns.LookupOptions): Promise<dns.LookupAddress[]> {
    return new Promise((resolve, reject) => {
      this.resolver(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) reject(error);
        else if (!Array.isArray(addresses) || addresses.length === 0) reject(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
        else resolve(addresses);
      });
    });
  }
}
