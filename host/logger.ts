// A small structured logger: one JSON line per entry on stderr, filtered by LOG_LEVEL.
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function createLogger(level: LogLevel = "info", base: Record<string, unknown> = {}): Logger {
  const write =
    (at: LogLevel) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (LEVELS[at] < LEVELS[level]) return;
      const line = { time: new Date().toISOString(), level: at, msg, ...base, ...fields };
      process.stderr.write(`${JSON.stringify(line, (_k, v) => (typeof v === "bigint" ? v.toString() : v))}\n`);
    };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    child: (fields) => createLogger(level, { ...base, ...fields }),
  };
}
