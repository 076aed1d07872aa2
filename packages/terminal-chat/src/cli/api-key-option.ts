import { Option } from 'commander';

/** `--api-key`, for agents whose card requires one; from `A2A_API_KEY` so it stays out of shell history. */
export function apiKeyOption(): Option {
  return new Option('--api-key <key>', "the agent's API key (sent as a bearer token)").env(
    'A2A_API_KEY',
  );
}
