import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type {
  CommandOutcome,
  GaugeSources,
  HarnessMetrics,
  TurnEnding,
} from './harness-metrics.js';

const PREFIX = 'a2a_harness_';

/** Commands answer from the store in milliseconds; turns wait on a model for seconds. */
const COMMAND_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
const DB_WRITE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * The harness's metrics in a prom-client registry of their own (one per
 * harness, so that several in one process do not share figures), with the
 * process's default metrics. `text()` is what `GET /metrics` serves.
 */
export class PrometheusMetrics implements HarnessMetrics {
  readonly registry = new Registry();
  private readonly commands: Counter<'command' | 'outcome'>;
  private readonly commandSeconds: Histogram<'command'>;
  private readonly commandFailures: Counter<'command'>;
  private readonly turns: Counter<'ending'>;
  private readonly firstTokenSeconds: Histogram;
  private readonly modelErrors: Counter<'provider'>;
  private readonly dbWriteSeconds: Histogram;
  private sources: GaugeSources | undefined;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.commands = new Counter({
      name: `${PREFIX}commands_total`,
      help: 'Command requests, by command name and outcome (replied or refused).',
      labelNames: ['command', 'outcome'],
      registers,
    });
    this.commandSeconds = new Histogram({
      name: `${PREFIX}command_duration_seconds`,
      help: 'Time from a command request reaching the handler to its reply or refusal.',
      labelNames: ['command'],
      buckets: COMMAND_BUCKETS,
      registers,
    });
    this.commandFailures = new Counter({
      name: `${PREFIX}command_failures_total`,
      help: 'Command handlers that threw unexpectedly (their reply says so; the log has the error).',
      labelNames: ['command'],
      registers,
    });
    this.turns = new Counter({
      name: `${PREFIX}turns_total`,
      help: 'Model turns that started running, by how they ended.',
      labelNames: ['ending'],
      registers,
    });
    this.firstTokenSeconds = new Histogram({
      name: `${PREFIX}turn_first_token_seconds`,
      help: "Time from the start of a turn's run to the model's first text.",
      buckets: FIRST_TOKEN_BUCKETS,
      registers,
    });
    this.modelErrors = new Counter({
      name: `${PREFIX}model_errors_total`,
      help: 'Failed model calls, by provider.',
      labelNames: ['provider'],
      registers,
    });
    this.dbWriteSeconds = new Histogram({
      name: `${PREFIX}db_write_seconds`,
      help: 'Time one task write spends in its database transaction.',
      buckets: DB_WRITE_BUCKETS,
      registers,
    });
    const read = () => this.sources;
    new Gauge({
      name: `${PREFIX}turn_queue_depth`,
      help: 'Turns waiting behind a running turn, over all tasks.',
      registers,
      async collect() {
        const sources = read();
        if (sources) this.set(await sources.queueDepth());
      },
    });
    new Gauge({
      name: `${PREFIX}open_streams`,
      help: 'SSE streams open now (SendStreamingMessage and SubscribeToTask).',
      registers,
      collect() {
        const sources = read();
        if (sources) this.set(sources.openStreams());
      },
    });
  }

  commandRan(name: string, outcome: CommandOutcome, seconds: number): void {
    this.commands.inc({ command: name, outcome });
    this.commandSeconds.observe({ command: name }, seconds);
  }

  commandFailed(name: string): void {
    this.commandFailures.inc({ command: name });
  }

  turnEnded(ending: TurnEnding): void {
    this.turns.inc({ ending });
  }

  firstToken(seconds: number): void {
    this.firstTokenSeconds.observe(seconds);
  }

  modelError(provider: string): void {
    this.modelErrors.inc({ provider });
  }

  dbWrite(seconds: number): void {
    this.dbWriteSeconds.observe(seconds);
  }

  readGauges(sources: GaugeSources): void {
    this.sources = sources;
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
