// oidc-provider announces development defaults (in-memory adapter, default TTLs, the Node.js version) on the
// console; a test peer wants exactly those defaults, so the announcements are dropped. Import before it.
for (const level of ['warn', 'info'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) =>
    String(args[0]).startsWith('oidc-provider ') ? undefined : original(...args);
}
