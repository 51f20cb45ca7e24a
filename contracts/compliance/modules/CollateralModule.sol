// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ComplianceModuleBase} from "./ComplianceModuleBase.sol";

/// @notice collateral-v2: supply may not exceed the collateral attested by the token's oracle.
/// params: abi.encode(address oracle, uint32 ratioBps): `oracle` is the only account that may call
/// setCollateral for the token; ratioBps >= 10000 is the required collateral per unit of supply
/// (10000 = 1:1, 15000 = 150%). Collateral is an amount in the token's raw units with an optional
/// expiry (0 = none). Only mints are checked: supply after the mint * ratioBps <= collateral * 10000.
/// The oracle's seat moves in two steps, as OpenZeppelin's Ownable2Step does: `transferOracle` by the oracle,
/// `acceptOracle` by the successor, which rewrites the token's parameters (same ratio; the attestation in force
/// stays). New parameters set by the token's governance end a pending transfer.
contract CollateralModule is ComplianceModuleBase {
    uint32 public constant MIN_RATIO_BPS = 10_000;

    struct Config {
        address oracle;
        uint32 ratioBps;
    }

    struct Attestation {
        uint256 amount;
        uint64 expiresAt;
        bool set;
    }

    mapping(address token => Config) public configOf;
    mapping(bytes32 scope => Attestation) private _collateral;
    /// The successor the token's oracle proposed until it accepts (zero when none).
    mapping(address token => address) public pendingOracleOf;

    event CollateralUpdated(address indexed sender, address indexed token, uint256 amount, uint64 expiresAt);
    event CollateralOracleTransferStarted(address indexed token, address indexed oracle, address indexed newOracle);
    event CollateralOracleTransferred(address indexed token, address indexed oracle, address indexed newOracle);

    error ZeroOracle();
    error CollateralRatioTooLow(uint32 ratioBps, uint32 minimum);
    error NotCollateralOracle(address token, address account);
    error CollateralExpiryInPast(uint64 expiresAt);
    error NotPendingCollateralOracle(address token, address account);

    function typeId() public pure virtual override returns (string memory) {
        return "collateral-v2";
    }

    /// The token's oracle attests the collateral backing it (replaces the previous attestation).
    function setCollateral(address token, uint256 amount, uint64 expiresAt) external {
        _requireConfigured(token);
        if (msg.sender != configOf[token].oracle) revert NotCollateralOracle(token, msg.sender);
        if (expiresAt != 0 && expiresAt <= block.timestamp) revert CollateralExpiryInPast(expiresAt);
        _collateral[_scope(token)] = Attestation(amount, expiresAt, true);
        emit CollateralUpdated(msg.sender, token, amount, expiresAt);
    }

    /// The token's oracle proposes its successor (zero withdraws the proposal); it attests until the successor accepts.
    function transferOracle(address token, address newOracle) external {
        _requireConfigured(token);
        if (msg.sender != configOf[token].oracle) revert NotCollateralOracle(token, msg.sender);
        pendingOracleOf[token] = newOracle;
        emit CollateralOracleTransferStarted(token, msg.sender, newOracle);
    }

    /// The proposed successor becomes the token's oracle: the token's parameters name it (the engine announces them).
    function acceptOracle(address token) external {
        _requireConfigured(token);
        if (msg.sender != pendingOracleOf[token]) revert NotPendingCollateralOracle(token, msg.sender);
        Config storage config = configOf[token];
        address previous = config.oracle;
        config.oracle = msg.sender;
        delete pendingOracleOf[token];
        _parametersChanged(msg.sender, token, abi.encode(msg.sender, config.ratioBps));
        emit CollateralOracleTransferred(token, previous, msg.sender);
    }

    function collateralOf(address token) external view returns (uint256 amount, uint64 expiresAt) {
        Attestation storage attestation = _collateral[_scope(token)];
        return (attestation.amount, attestation.expiresAt);
    }

    function check(address token, address from, address, uint256 amount)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (from != address(0)) return (true, "");
        Attestation memory attestation = _collateral[_scope(token)];
        if (!attestation.set) return (false, "no collateral attested");
        if (attestation.expiresAt != 0 && attestation.expiresAt <= block.timestamp) {
            return (false, "collateral attestation expired");
        }
        uint256 maxSupply = Math.mulDiv(attestation.amount, 10_000, configOf[token].ratioBps);
        if (IERC20(token).totalSupply() + amount > maxSupply) return (false, "insufficient collateral");
        return (true, "");
    }

    function _clear(address token) internal override {
        delete configOf[token];
        delete pendingOracleOf[token];
    }

    function _configure(address token, bytes calldata params) internal override {
        (address oracle, uint32 ratioBps) = abi.decode(params, (address, uint32));
        if (oracle == address(0)) revert ZeroOracle();
        if (ratioBps < MIN_RATIO_BPS) revert CollateralRatioTooLow(ratioBps, MIN_RATIO_BPS);
        configOf[token] = Config(oracle, ratioBps);
        delete pendingOracleOf[token];
    }
}
