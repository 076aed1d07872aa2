// The raw HTTP helpers the library's own tests use: one copy for both packages.
export * from '../../../commands/test/support/http.js';
