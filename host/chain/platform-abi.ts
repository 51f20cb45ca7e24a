// Every ABI item of the platform's contracts, for decoding calldata and revert data of any platform call.
import type { Abi } from "viem";
import { SystemAbi } from "../../abis/System.ts";
import { SystemFactoryAbi } from "../../abis/SystemFactory.ts";
import { TokenAbi } from "../../abis/Token.ts";
import { TokenFactoryAbi } from "../../abis/TokenFactory.ts";

const ALL = [...TokenAbi, ...TokenFactoryAbi, ...SystemAbi, ...SystemFactoryAbi];

export const PLATFORM_FUNCTIONS = ALL.filter((item) => item.type === "function") as Abi;
export const PLATFORM_ERRORS = ALL.filter((item) => item.type === "error") as Abi;
