// What each addon type records when one of its instances is created (its own table, activity), by type id string.
// A type without an entry is still listed in addon_instance.
import type { Context } from "ponder:registry";
import type { Address, Hex } from "viem";
import type { LoggedEvent } from "../record-event.ts";
import { fixedYieldScheduleCreated } from "./fixed-yield-schedule.ts";
import { tokenSaleCreated } from "./token-sale.ts";
import { xvpSettlementCreated } from "./xvp-settlement.ts";

export interface AddonCreation {
  event: LoggedEvent;
  system: Address;
  addon: Address;
  instance: Address;
  params: Hex;
}

export type AddonCreatedHandler = (context: Context, creation: AddonCreation) => Promise<void>;

export const addonCreatedHandlers: Record<string, AddonCreatedHandler> = {
  "fixed-yield-schedule": fixedYieldScheduleCreated,
  "token-sale": tokenSaleCreated,
  "xvp-settlement": xvpSettlementCreated,
};
