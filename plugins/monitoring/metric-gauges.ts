// A scrape's readings onto the gauges: each family emptied first, so a task, outcome or chain that is gone is gone
// from the page too.
import type { MetricFamilies } from "./metric-families.ts";
import type { MetricReadings } from "./metric-readings.ts";

export function setGauges(m: MetricFamilies, readings: MetricReadings, droppedLogs: number): void {
  for (const g of [m.queueDepth, m.jobFailures, m.jobsDead, m.deliveries, m.chainHead, m.indexHead, m.indexLag]) {
    g.reset();
  }
  for (const g of [m.unfinal, m.reorged, m.reorgs]) g.reset();
  for (const row of readings.finality) {
    const chain = { chain_id: String(row.chainId) };
    m.unfinal.set(chain, row.unfinal);
    m.reorged.set(chain, row.reorged);
    m.reorgs.set(chain, row.reorgs);
  }
  for (const row of readings.jobs) {
    m.queueDepth.set({ task: row.task }, row.depth);
    m.jobFailures.set({ task: row.task }, row.failed);
    m.jobsDead.set({ task: row.task }, row.dead);
  }
  for (const row of readings.webhook) m.deliveries.set({ outcome: row.outcome }, row.count);
  for (const { chainId, head, indexed } of readings.chains) {
    if (head !== undefined) m.chainHead.set({ chain_id: chainId }, Number(head));
    if (indexed !== undefined) m.indexHead.set({ chain_id: chainId }, indexed);
    if (head !== undefined && indexed !== undefined) m.indexLag.set({ chain_id: chainId }, Number(head) - indexed);
  }
  m.droppedLogs.set(droppedLogs);
}
