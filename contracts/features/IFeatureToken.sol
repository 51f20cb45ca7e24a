// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";

/// @notice What a feature sees of its token: the ERC-20, roles, the attached features, and the
/// narrowly privileged movements only the token's own attached features may call.
interface IFeatureToken is IERC20Metadata {
    function hasRole(bytes32 role, address account) external view returns (bool);
    function isFeature(address account) external view returns (bool);
    function featureOf(string calldata featureId) external view returns (address);
    /// True for movements no fee applies to: made by an attached feature, or inside a forced transfer.
    function isFeeExempt(address sender) external view returns (bool);

    function featureMint(address to, uint256 amount) external;
    function featureBurn(address from, uint256 amount) external;
    function featureTransfer(address from, address to, uint256 amount) external;
}
