/** What the PostgreSQL global setup provides to the test files. */
declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export {};
