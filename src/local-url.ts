// The URL a client on this machine reaches a server listening on `host` at: a wildcard listen
// address is reached through loopback, and an IPv6 host needs brackets.
export function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
