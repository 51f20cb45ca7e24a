// Issue #2's figures: time from start to ready (first and second start on the same data), and time from a
// mint's POST to its balance being readable through the legacy holders route.
import { bootStack, json, waitForTerminal } from "../test/support/stack.ts";
import { summary } from "./stats.ts";

const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const MINTS = Number(process.env.BENCH_MINTS ?? 30);

export async function benchSlice(): Promise<void> {
  const stack = await bootStack();
  try {
    const first = stack.platform.timings;
    const created = await json(
      await stack.api("/api/v2/tokens", {
        method: "POST",
        body: JSON.stringify({ templateId: "deposit", name: "Bench", symbol: "BNCH" }),
      }),
    );
    const token = (await waitForTerminal(stack, created.statusUrl)).result.tokenAddress as string;

    const toReadable: number[] = [];
    const toCompleted: number[] = [];
    let expected = 0n;
    for (let i = 0; i < MINTS; i++) {
      const amount = 1000n + BigInt(i);
      expected += amount;
      const t0 = performance.now();
      const accepted = await json(
        await stack.api(`/api/v2/tokens/${token}/mint`, {
          method: "POST",
          body: JSON.stringify({ recipients: [RECIPIENT], amounts: [amount.toString()] }),
        }),
      );
      await waitForTerminal(stack, accepted.statusUrl);
      toCompleted.push(performance.now() - t0);
      for (;;) {
        const holders = await json(await stack.api(`/api/token/${token}/holders`));
        const raw = BigInt(Math.round(Number(holders.token.balances[0]?.value ?? 0) * 100));
        if (raw === expected) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      toReadable.push(performance.now() - t0);
    }

    await stack.restart();
    const second = stack.platform.timings;
    const phases = (t: Record<string, number>) =>
      Object.entries(t)
        .filter(([k]) => k !== "total")
        .map(([k, v]) => `${k} ${v}`)
        .join(", ");
    console.log("slice (issue #2)");
    console.log(`  start to ready, first start:  ${(first.total / 1000).toFixed(1)} s (${phases(first)} ms)`);
    console.log(`  start to ready, second start: ${(second.total / 1000).toFixed(1)} s (${phases(second)} ms)`);
    console.log(`  mint POST -> COMPLETED (status read waits for the index): ${summary(toCompleted)}`);
    console.log(`  mint POST -> balance readable in /api/token/{address}/holders: ${summary(toReadable)}`);
  } finally {
    await stack.stop();
  }
}
