// Which feeds an activity event belongs to, per address (pure: the indexing handler and its tests share it).
import { type Address, type Hex, zeroAddress } from "viem";

export interface LinkRoles {
  participant: Address[];
  account: Address[];
}

/** Pure: each distinct (lowercase) address with the feeds it belongs to. */
export function activityLinks(roles: LinkRoles): { address: Hex; forParticipant: boolean; forAccount: boolean }[] {
  const links = new Map<Hex, { forParticipant: boolean; forAccount: boolean }>();
  const mark = (addresses: Address[], feed: "forParticipant" | "forAccount") => {
    for (const raw of addresses) {
      if (raw === zeroAddress) continue;
      const address = raw.toLowerCase() as Hex;
      const link = links.get(address) ?? { forParticipant: false, forAccount: false };
      link[feed] = true;
      links.set(address, link);
    }
  };
  mark(roles.participant, "forParticipant");
  mark(roles.account, "forAccount");
  return [...links].map(([address, link]) => ({ address, ...link }));
}
