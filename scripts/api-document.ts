// The v2 OpenAPI document built in this process, without a database, chain or indexer: the app is composed on
// placeholder connections (pg, viem and the index client only connect on first use, and serving the document uses
// none of them), then asked for /api/v2/spec.json as a client would.
import { createApp } from "../host/app.ts";
import type { App } from "../host/http/env.ts";
import { createLogger } from "../host/logger.ts";
import type { OpenApiDocument } from "../host/openapi/api-documents.ts";
import { composed, createPlatformContext, loadPlatformConfig } from "./platform-context.ts";

const NOWHERE = "http://127.0.0.1:9";

/** Runs `use` on the app composed as the platform runs it, on placeholder connections (nothing connects). */
export async function withOfflineApp<T>(use: (app: App) => Promise<T>): Promise<T> {
  // A fixed master key: the default would create a key file under DATA_DIR.
  const config = loadPlatformConfig({ CUSTODY_MASTER_KEY: `0x${"00".repeat(32)}` });
  const parts = {
    databaseUrl: "postgres://offline@127.0.0.1:9/none",
    chains: [{ chainId: 31337, rpcUrl: NOWHERE, systemFactory: `0x${"00".repeat(20)}` as const }],
    indexerUrl: NOWHERE,
  };
  const { ctx, chains, index, db } = createPlatformContext(config, parts, createLogger("warn"));
  try {
    return await use(createApp(ctx, composed, { db, chains, index, workerRunning: () => false }));
  } finally {
    await db.close();
  }
}

export function buildV2Document(): Promise<OpenApiDocument> {
  return withOfflineApp(async (app) => {
    const res = await app.request("/api/v2/spec.json");
    if (res.status !== 200) throw new Error(`GET /api/v2/spec.json answered ${res.status}`);
    return (await res.json()) as OpenApiDocument;
  });
}
