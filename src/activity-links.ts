// Which feeds an activity event belongs to, per address (pure: the indexing handler and its tests share it).
import { type Address, type Hex, zeroAddress } from "viem";

export interface LinkRoles {
  participant: Address[];
  account: Address[];
}

export interface Link {
  address: Hex;
  forParticipant: boolean;
  forAccount: boolean;
}

/**
 * Pure: each distinct (lowercase) address with the feeds it belongs to, but those in `unlinked` (lowercase: addresses
 * whose feeds read the event otherwise).
 */
export function activityLinks(roles: LinkRoles, unlinked: readonly string[] = []): Link[] {
  const links = new Map<Hex, { forParticipant: boolean; forAccount: boolean }>();
  const mark = (addresses: Address[], feed: "forParticipant" | "forAccount") => {
    for (const raw of addresses) {
      if (raw === zeroAddress) continue;
      const address = raw.toLowerCase() as Hex;
      if (unlinked.includes(address)) continue;
      const link = links.get(address) ?? { forParticipant: false, forAccount: false };
      link[feed] = true;
      links.set(address, link);
    }
  };
  mark(roles.participant, "forParticipant");
  mark(roles.account, "forAccount");
  return [...links].map(([address, link]) => ({ address, ...link }));
}

/**
 * Pure: the event's party, its first address in both feeds, kept on the event itself (most events have one: the
 * holder of a mint, the receiver of a transfer), and the links of the others.
 */
export function partyAndLinks(links: Link[]): { party: Hex | null; links: Link[] } {
  const first = links.findIndex((link) => link.forParticipant && link.forAccount);
  if (first < 0) return { party: null, links };
  return { party: links[first].address, links: links.filter((_, i) => i !== first) };
}
