import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may be sent to (SSRF guard). An endpoint URL is customer input:
 * without this, `https://169.254.169.254/…` or an internal host name would make the service
 * call into its own network. Refused: every non-public range — private, loopback, link-local
 * (hence the cloud metadata service 169.254.169.254 and fd00:ec2::254), carrier-grade NAT
 * (Alibaba's metadata 100.100.100.200), benchmarking, documentation, multicast, reserved.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: would reach IPv4 space through a translator
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['fc00::', 7], // unique local (fd00:ec2::254 is AWS's metadata service)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Host names that the localhost allowance covers (tests and `npm start`). */
const LOCALHOST_NAMES = new Set(['localhost', '127.0.0.1']);

export function isLocalhostName(hostname: string): boolean {
  return LOCALHOST_NAMES.has(hostname.toLowerCase());
}

/** Strips the brackets URL puts around IPv6 literals. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** IPv4-mapped IPv6 (`::ffff:a.b.c.d` / `::ffff:7f00:1`) is checked as the IPv4 it carries. */
function family(ip: string): 'ipv4' | 'ipv6' | null {
  const v = isIP(ip);
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : null;
}

function mappedIpv4(ip: string): string | null {
  const m = /^::ffff:(?:0:)?(.+)$/i.exec(ip);
  if (!m?.[1]) return null;
  if (isIP(m[1]) === 4) return m[1];
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(m[1]);
  if (!hex?.[1] || !hex[2]) return null;
  const hi = Number.parseInt(hex[1], 16);
  const lo = Number.parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for an address on the public internet; false for anything listed above or not an IP. */
export function isPublicAddress(ip: string): boolean {
  const mapped = mappedIpv4(ip);
  if (mapped) return isPublicAddress(mapped);
  const f = family(ip);
  return f !== null && !blocked.check(ip, f);
}

export function isLoopbackAddress(ip: string): boolean {
  const mapped = mappedIpv4(ip);
  if (mapped) return isLoopbackAddress(mapped);
  const f = family(ip);
  return f !== null && loopback.check(ip, f);
}

/**
 * May a delivery to `hostname` connect to `ip`? Public addresses always; loopback only for the
 * localhost names and only with the allowance on. Everything else never.
 */
export function addressAllowed(ip: string, hostname: string, allowLocalhost: boolean): boolean {
  if (isPublicAddress(ip)) return true;
  return allowLocalhost && isLocalhostName(bareHost(hostname)) && isLoopbackAddress(ip);
}
