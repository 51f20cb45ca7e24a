// A Logger that keeps what it is told (level and message), for unit tests that count log lines.
import type { Logger } from "../../host/logger.ts";

export function recordingLogger(): { logger: Logger; lines: { level: string; msg: string }[] } {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (msg: string) => void lines.push({ level, msg });
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: () => logger,
  };
  return { logger, lines };
}
