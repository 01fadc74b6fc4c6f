import type { ApiLogger } from '../api/apiLogger';
import { toDisposable, type IDisposable } from './lifecycle';
import type { SecretRedactor } from './redactor';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** Where log lines go; a `vscode.LogOutputChannel` is one. */
export type LogSink = Record<LogLevel, (message: string) => void>;

/** The extension's one logger: every line is redacted, then written to each sink with its component prefix. */
export class Logger {
  private readonly sinks: LogSink[];

  constructor(
    sink: LogSink,
    private readonly redactor: SecretRedactor,
  ) {
    this.sinks = [sink];
  }

  /** An extra sink (tests read what was logged, at every level). */
  addSink(sink: LogSink): IDisposable {
    this.sinks.push(sink);
    return toDisposable(() => {
      const index = this.sinks.indexOf(sink);
      if (index >= 0) this.sinks.splice(index, 1);
    });
  }

  /** A logger whose lines start with `[component]`, e.g. `[auth]`. */
  forComponent(component: string): ComponentLogger {
    return new ComponentLogger(this, component);
  }

  write(level: LogLevel, component: string, message: string): void {
    const line = this.redactor.redact(`[${component}] ${message}`);
    for (const sink of this.sinks) sink[level](line);
  }
}

export class ComponentLogger implements ApiLogger {
  constructor(
    private readonly logger: Logger,
    private readonly component: string,
  ) {}

  trace(message: string): void {
    this.logger.write('trace', this.component, message);
  }
  debug(message: string): void {
    this.logger.write('debug', this.component, message);
  }
  info(message: string): void {
    this.logger.write('info', this.component, message);
  }
  warn(message: string): void {
    this.logger.write('warn', this.component, message);
  }
  error(message: string): void {
    this.logger.write('error', this.component, message);
  }
}

/** A short description of any thrown value for a log line. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
