// A Logger that keeps what it is told (level, message and fields), for unit tests that count log lines.
import type { Logger } from "../../host/logger.ts";

export interface LogLine {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}

export function recordingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, msg, ...(fields ? { fields } : {}) });
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: () => logger,
  };
  return { logger, lines };
}
