/** The global setup under its former name, which the harness's projects still use. */
export { default } from './test-run-setup.js';
