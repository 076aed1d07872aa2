/** What the PostgreSQL global setup provides to the test files, and how they ask it for the server. */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where a test file asks for the server, and reads whether it is ready. */
    postgresFolder: string;
  }
}

/** Made by the first test file that needs the server: the global setup then starts it. */
export const POSTGRES_REQUEST = 'wanted';
/** Reads `ready <url>` once the server accepts connections, or `failed: <why>`. */
export const POSTGRES_STATUS = 'status';
