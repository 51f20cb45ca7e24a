// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControlUpgradeable} from "@openzeppelin/contracts-upgradeable/access/AccessControlUpgradeable.sol";
import {TokenRoles} from "./TokenRoles.sol";

/// @notice ERC-1643 documents (name → uri, content hash, last modified), managed by GOVERNANCE.
abstract contract TokenDocuments is AccessControlUpgradeable {
    struct Document {
        string uri;
        bytes32 documentHash;
        uint256 lastModified;
    }

    mapping(bytes32 name => Document) private _documents;
    bytes32[] private _documentNames;
    /// Position in `_documentNames` plus one (0 = absent).
    mapping(bytes32 name => uint256) private _documentPosition;

    event DocumentUpdated(address indexed sender, bytes32 indexed name, string uri, bytes32 documentHash);
    event DocumentRemoved(address indexed sender, bytes32 indexed name, string uri, bytes32 documentHash);

    error DocumentNotFound(bytes32 name);
    error InvalidDocument(bytes32 name);

    function setDocument(bytes32 name, string calldata uri, bytes32 documentHash)
        external
        onlyRole(TokenRoles.GOVERNANCE_ROLE)
    {
        if (name == bytes32(0) || bytes(uri).length == 0) revert InvalidDocument(name);
        if (_documentPosition[name] == 0) {
            _documentNames.push(name);
            _documentPosition[name] = _documentNames.length;
        }
        _documents[name] = Document(uri, documentHash, block.timestamp);
        emit DocumentUpdated(_msgSender(), name, uri, documentHash);
    }

    function removeDocument(bytes32 name) external onlyRole(TokenRoles.GOVERNANCE_ROLE) {
        uint256 position = _documentPosition[name];
        if (position == 0) revert DocumentNotFound(name);
        bytes32 last = _documentNames[_documentNames.length - 1];
        _documentNames[position - 1] = last;
        _documentPosition[last] = position;
        _documentNames.pop();
        delete _documentPosition[name];
        Document memory removed = _documents[name];
        delete _documents[name];
        emit DocumentRemoved(_msgSender(), name, removed.uri, removed.documentHash);
    }

    function getDocument(bytes32 name) external view returns (string memory, bytes32, uint256) {
        Document storage document = _documents[name];
        if (_documentPosition[name] == 0) revert DocumentNotFound(name);
        return (document.uri, document.documentHash, document.lastModified);
    }

    function getAllDocuments() external view returns (bytes32[] memory) {
        return _documentNames;
    }
}
