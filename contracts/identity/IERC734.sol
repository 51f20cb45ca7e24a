// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice ERC-734 key holder. Keys are keccak256(abi.encode(address)) for ECDSA keys (keyType 1).
/// Purposes: 1 MANAGEMENT, 2 ACTION, 3 CLAIM. `execute` runs at once or reverts (no approval queue).
interface IERC734 {
    event KeyAdded(bytes32 indexed key, uint256 indexed purpose, uint256 indexed keyType);
    event KeyRemoved(bytes32 indexed key, uint256 indexed purpose, uint256 indexed keyType);
    event ExecutionRequested(uint256 indexed executionId, address indexed to, uint256 indexed value, bytes data);
    event Executed(uint256 indexed executionId, address indexed to, uint256 indexed value, bytes data);

    function addKey(bytes32 key, uint256 purpose, uint256 keyType) external returns (bool success);
    function removeKey(bytes32 key, uint256 purpose) external returns (bool success);
    function execute(address to, uint256 value, bytes calldata data) external payable returns (uint256 executionId);
    function getKey(bytes32 key) external view returns (uint256[] memory purposes, uint256 keyType, bytes32 keyId);
    function getKeyPurposes(bytes32 key) external view returns (uint256[] memory purposes);
    function getKeysByPurpose(uint256 purpose) external view returns (bytes32[] memory keys);
    function keyHasPurpose(bytes32 key, uint256 purpose) external view returns (bool exists);
}
