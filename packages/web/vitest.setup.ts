/**
 * Testing Library's findBy* and waitFor give up after 1 s by default, which
 * holds only on an idle machine: with other files running beside them, jsdom
 * renders take longer. The tests' own timeout still bounds each test.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}
