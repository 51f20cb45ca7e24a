// Not generated from contracts/: the events of @account-abstraction/contracts 0.8.0's EntryPoint that the index
// follows (the platform deploys the package's artifact). test/index/entry-point-abi.test.ts checks them against it.
import { parseAbi } from "viem";

export const EntryPointAbi = parseAbi([
  "event BeforeExecution()",
  "event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)",
  "event UserOperationRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason)",
  "event Deposited(address indexed account, uint256 totalDeposit)",
  "event Withdrawn(address indexed account, address withdrawAddress, uint256 amount)",
]);
