import { BlockList, isIP } from 'node:net'

/**
 * Which addresses the image proxy may connect to: public unicast only. Loopback, private,
 * shared (CGNAT), link-local, unique-local, multicast, documentation, benchmarking and reserved
 * ranges are all refused, as is every IPv6 address outside global unicast (2000::/3), which
 * covers ::1, ::, fc00::/7, fe80::/10, ff00::/8, IPv4-mapped ::ffff:0:0/96 and NAT64 64:ff9b::/96.
 */
const BLOCKED_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
]

/** Inside 2000::/3, the parts that are not ordinary global unicast or that tunnel to IPv4. */
const BLOCKED_V6: readonly [string, number][] = [
  ['2001::', 23], // IETF protocol assignments, Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['3fff::', 20], // documentation
]

const blocked = new BlockList()
for (const [net, prefix] of BLOCKED_V4) blocked.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of BLOCKED_V6) blocked.addSubnet(net, prefix, 'ipv6')
const globalUnicast = new BlockList()
globalUnicast.addSubnet('2000::', 3, 'ipv6')

/** True only for a public unicast IPv4 or IPv6 address; anything unparsable is false. */
export function isPublicAddress(ip: string): boolean {
  try {
    const family = isIP(ip)
    if (family === 4) return !blocked.check(ip, 'ipv4')
    if (family === 6) return globalUnicast.check(ip, 'ipv6') && !blocked.check(ip, 'ipv6')
    return false
  } catch {
    return false
  }
}
