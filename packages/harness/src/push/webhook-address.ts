import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may be sent to. Only global unicast: loopback,
 * private, link-local, unique-local, carrier-grade NAT, multicast, reserved
 * and documentation ranges are refused, and so are the IPv6 forms that carry
 * an IPv4 address inside them (IPv4-mapped is read as the IPv4 address it
 * maps; NAT64, 6to4 and Teredo are refused outright, since what they reach
 * depends on the network).
 */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/**
 * The range `address` falls in, as ipaddr.js names them (`unicast`,
 * `loopback`, `private`, `linkLocal`, `uniqueLocal`...), with IPv4-mapped
 * IPv6 read as IPv4; `invalid` for text that is not an IP address.
 */
export function addressRange(address: string): string {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return 'invalid';
  // `process` turns ::ffff:a.b.c.d into a.b.c.d, so the IPv4 ranges apply to it.
  return ipaddr.process(bare).range();
}

/** Whether `host` (a URL's hostname) is an IP address rather than a name. */
export function isAddressLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || ipaddr.IPv6.isValid(bare);
}
