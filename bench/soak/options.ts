/** What a soak run is asked to do. */
export interface SoakOptions {
  /** How long the clients run, unless `actions` is given. */
  durationSeconds: number;
  /**
   * How many actions the clients run between them, however long that takes:
   * the same work on an idle machine and a busy one. Overrides `durationSeconds`.
   */
  actions?: number;
  clients: number;
  /** Live tasks the clients share; canceled ones are replaced. */
  tasks: number;
  /** PostgreSQL (or `sqlite:` file) URL; a fresh SQLite data directory when absent. */
  databaseUrl?: string;
  /** The offline model's delay per streamed word. */
  latencyMs: number;
  /** How long turns get to end once the clients stop. */
  drainSeconds: number;
  seed: number;
  /**
   * The server's V8 old-space cap in MiB (0: V8's default). Uncapped, V8 grows its
   * heap in steps for minutes while what it holds after a GC stays flat, which
   * reads as growth; capped, RSS shows what is kept, and a leak hits the cap and
   * crashes the server, which the checks report.
   */
  serverHeapMiB: number;
  /** Progress lines; silent when absent. */
  log?: (line: string) => void;
}

export const SOAK_DEFAULTS: SoakOptions = {
  durationSeconds: 60,
  clients: 32,
  tasks: 200,
  latencyMs: 2,
  drainSeconds: 5,
  seed: 1,
  serverHeapMiB: 128,
};
