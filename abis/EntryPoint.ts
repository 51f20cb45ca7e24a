// Not generated from contracts/: the events of @account-abstraction/contracts' EntryPoints that the index follows,
// the same in 0.8.0 and 0.7.0 (the platform deploys both releases' artifacts). test/index/entry-point-abi.test.ts checks
// them against both.
import { parseAbi } from "viem";

export const EntryPointAbi = parseAbi([
  "event BeforeExecution()",
  "event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)",
  "event UserOperationRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason)",
  "event Deposited(address indexed account, uint256 totalDeposit)",
  "event Withdrawn(address indexed account, address withdrawAddress, uint256 amount)",
]);
