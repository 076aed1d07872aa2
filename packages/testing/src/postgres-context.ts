/** What the PostgreSQL global setup provides to the test files. */
declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** A file that reads `ready` once the server accepts connections, or why it failed. */
    postgresStatusFile: string;
  }
}

export {};
