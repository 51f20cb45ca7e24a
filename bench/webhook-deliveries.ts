// Webhook deliveries: how many per second reach a local receiver (events recorded in the outbox as an emitting
// plugin records them, fanned out to several endpoints, each delivery signed and POSTed by the worker), beside a
// bare loop that signs and POSTs the same number of deliveries to the same receiver; and the latency from the block
// that makes a transfer final (WEBHOOK_REORG_DEPTH blocks on top of it) to the receipt of its token.transfer.final.
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { v7 as uuidv7 } from "uuid";
import { bootStack, createDepositToken, json, platformDbUrl } from "../test/support/stack.ts";
import { webhookReceiver } from "../test/support/webhook-receiver.ts";
import { summary } from "./stats.ts";

const ENDPOINTS = 8;
const EVENTS = 1500;
const TRANSFERS = 30;
const DEPTH = 3;
const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ISSUANCE = "asset.issuance.provisional";

async function until(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function benchWebhookDeliveries(): Promise<void> {
  const stack = await bootStack({ WEBHOOK_REORG_DEPTH: String(DEPTH), HOST: "127.0.0.1" });
  const receiver = await webhookReceiver();
  const db = new pg.Client({ connectionString: platformDbUrl(stack.env) });
  await db.connect();
  try {
    const subscribe = async (path: string, eventTypes: string[]) => {
      const res = await stack.api("/api/v2/webhooks/endpoints", {
        method: "POST",
        body: JSON.stringify({ url: receiver.url(path), eventTypes }),
      });
      if (res.status !== 201) throw new Error(`endpoint: ${res.status} ${await res.text()}`);
      return (await json(res)).data as { id: string; secret: string };
    };
    const endpoints: { id: string; secret: string }[] = [];
    for (let i = 0; i < ENDPOINTS; i++) endpoints.push(await subscribe(`/load/${i}`, [ISSUANCE]));
    const delivered = () => endpoints.reduce((n, _, i) => n + receiver.received(`/load/${i}`).length, 0);

    // The platform: EVENTS events in the outbox (as ctx.emit records them), ENDPOINTS deliveries each.
    const payload = {
      assetAddress: RECIPIENT,
      chainId: 31337,
      quantity: "1",
      transactionHash: `0x${"ab".repeat(32)}`,
    };
    const started = performance.now();
    await db.query(
      `insert into platform.webhook_outbox (id, organization_id, type, payload, lifecycle_state)
       select 'evt_' || gen_random_uuid(), $1, $2, $3::jsonb, 'provisional' from generate_series(1, $4)`,
      [stack.platform.credentials.organizationId, ISSUANCE, JSON.stringify(payload), EVENTS],
    );
    await until(() => delivered() >= EVENTS * ENDPOINTS, 300_000, "every delivery");
    const platformSeconds = (performance.now() - started) / 1000;

    // The bare loop: sign and POST the same deliveries, ENDPOINTS at a time.
    const body = JSON.stringify({
      evt_id: "evt_x",
      type: ISSUANCE,
      version: 1,
      lifecycle_state: "provisional",
      payload,
    });
    const signer = new Webhook(endpoints[0].secret);
    const bareStarted = performance.now();
    await Promise.all(
      endpoints.map(async (_, lane) => {
        for (let i = 0; i < EVENTS; i++) {
          const id = `evt_${uuidv7()}`;
          const at = new Date();
          const res = await fetch(receiver.url(`/bare/${lane}`), {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "webhook-id": id,
              "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
              "webhook-signature": signer.sign(id, at, body),
            },
            body,
          });
          await res.body?.cancel();
        }
      }),
    );
    const bareSeconds = (performance.now() - bareStarted) / 1000;
    const total = EVENTS * ENDPOINTS;
    console.log(
      `webhook deliveries (${EVENTS} events x ${ENDPOINTS} endpoints = ${total} signed POSTs to a local receiver)`,
    );
    console.log(
      `  platform (outbox -> fan-out -> worker jobs -> receiver): ${(total / platformSeconds).toFixed(0)} deliveries/s (${platformSeconds.toFixed(1)} s)`,
    );
    console.log(
      `  bare loop (sign + POST, ${ENDPOINTS} at a time):             ${(total / bareSeconds).toFixed(0)} deliveries/s (${bareSeconds.toFixed(1)} s)`,
    );

    // Block that makes a transfer final -> its token.transfer.final at the receiver.
    const finals = await subscribe("/final", ["token.transfer.final"]);
    void finals;
    const token = await createDepositToken(stack, "Webhook Bench", "WHB");
    const signerAddress = (await json(await stack.api("/api/user/assets"))).wallets[0] as string;
    const mint = await stack.api(`/api/v2/tokens/${token}/mint`, {
      method: "POST",
      headers: { prefer: "wait=30" },
      body: JSON.stringify({ recipients: [signerAddress], amounts: ["1000000"] }),
    });
    if (mint.status !== 200) throw new Error(`mint: ${mint.status} ${await mint.text()}`);
    const latencies: number[] = [];
    for (let i = 0; i < TRANSFERS; i++) {
      const res = await stack.api(`/api/v2/tokens/${token}/transfer`, {
        method: "POST",
        headers: { prefer: "wait=30" },
        body: JSON.stringify({ recipients: [RECIPIENT], amounts: ["1"] }),
      });
      const done = await json(res);
      if (res.status !== 200) throw new Error(`transfer: ${res.status} ${JSON.stringify(done)}`);
      const hash = done.meta.txHashes[0] as string;
      for (let b = 1; b < DEPTH; b++) await stack.rpc("evm_mine");
      const finalBlockAt = performance.now() + performance.timeOrigin;
      await stack.rpc("evm_mine"); // this block puts the transfer DEPTH deep
      const isIt = () => receiver.received("/final").find((r) => r.body.includes(hash));
      await until(() => !!isIt(), 60_000, `the final event of ${hash}`);
      latencies.push((isIt()?.at ?? 0) - finalBlockAt);
    }
    console.log(
      `  final block -> token.transfer.final delivered (depth ${DEPTH}, ${TRANSFERS} transfers): ${summary(latencies)}`,
    );
  } finally {
    await db.end();
    await receiver.close();
    await stack.stop();
  }
}
