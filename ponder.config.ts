// The Ledger Index: Ponder indexes the platform's own contracts, found from the root factory's events.
import { readFileSync } from "node:fs";
import { createConfig, factory, mergeAbis } from "ponder";
import { getAbiItem } from "viem";
import { AumFeeFeatureAbi } from "./abis/AumFeeFeature";
import { ComplianceAbi } from "./abis/Compliance";
import { ConversionFeatureAbi } from "./abis/ConversionFeature";
import { ConversionMinterFeatureAbi } from "./abis/ConversionMinterFeature";
import { ExternalTransactionFeeFeatureAbi } from "./abis/ExternalTransactionFeeFeature";
import { FixedTreasuryYieldFeatureAbi } from "./abis/FixedTreasuryYieldFeature";
import { MaturityRedemptionFeatureAbi } from "./abis/MaturityRedemptionFeature";
import { SystemFactoryAbi } from "./abis/SystemFactory";
import { TokenAbi } from "./abis/Token";
import { TransactionFeeAccountingFeatureAbi } from "./abis/TransactionFeeAccountingFeature";
import { TransactionFeeFeatureAbi } from "./abis/TransactionFeeFeature";
import { VotingPowerFeatureAbi } from "./abis/VotingPowerFeature";

interface IndexedDeployment {
  chainId: number;
  systemFactory: `0x${string}`;
  startBlock: number;
}

// The supervisor passes the deployment manifest it wrote (or was given) and the chain's RPC URL.
const manifestPath = process.env.DEPLOYMENT_MANIFEST;
const deployment: IndexedDeployment = manifestPath
  ? JSON.parse(readFileSync(manifestPath, "utf8"))
  : { chainId: 31337, systemFactory: "0x0000000000000000000000000000000000000000", startBlock: 0 };

const chain = `chain${deployment.chainId}`;
const root = deployment.systemFactory;

export default createConfig({
  database: { kind: "postgres", connectionString: process.env.DATABASE_URL },
  chains: {
    [chain]: {
      id: deployment.chainId,
      rpc: process.env.PONDER_RPC_URL ?? "http://127.0.0.1:8545",
      pollingInterval: Number(process.env.PONDER_POLLING_INTERVAL_MS ?? 250),
      disableCache: deployment.chainId === 31337,
    },
  },
  contracts: {
    SystemFactory: { abi: SystemFactoryAbi, chain, address: root, startBlock: deployment.startBlock },
    Token: {
      abi: TokenAbi,
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "TokenCreated" }),
        parameter: "token",
      }),
      startBlock: deployment.startBlock,
    },
    // Every feature instance: parameter updates and the features' own events (redemptions, fees, ...).
    TokenFeature: {
      abi: mergeAbis([
        MaturityRedemptionFeatureAbi,
        FixedTreasuryYieldFeatureAbi,
        AumFeeFeatureAbi,
        TransactionFeeFeatureAbi,
        TransactionFeeAccountingFeatureAbi,
        ExternalTransactionFeeFeatureAbi,
        ConversionFeatureAbi,
        ConversionMinterFeatureAbi,
        VotingPowerFeatureAbi,
      ]),
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "FeatureAttached" }),
        parameter: "feature",
      }),
      startBlock: deployment.startBlock,
    },
    // Each system's compliance engine: module registrations and the modules in force per token.
    Compliance: {
      abi: ComplianceAbi,
      chain,
      address: factory({
        address: root,
        event: getAbiItem({ abi: SystemFactoryAbi, name: "SystemCreated" }),
        parameter: "compliance",
      }),
      startBlock: deployment.startBlock,
    },
  },
});
