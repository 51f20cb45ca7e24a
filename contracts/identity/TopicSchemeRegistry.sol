// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IdentityAccess} from "./IdentityAccess.sol";
import {IdentityRoles} from "./IdentityRoles.sol";

/// @notice A system's claim topics: name → topicId = uint256(keccak256(bytes(name))), with the ABI
/// signature of the claim data (e.g. "string country, uint256 expiry").
contract TopicSchemeRegistry is Initializable, IdentityAccess {
    struct Scheme {
        string name;
        string signature;
    }

    mapping(uint256 topicId => Scheme) private _schemes;
    uint256[] private _topicIds;
    /// Position + 1 in _topicIds; zero when absent.
    mapping(uint256 topicId => uint256) private _position;

    event TopicSchemeRegistered(address indexed sender, uint256 indexed topicId, string name, string signature);
    event TopicSchemeUpdated(address indexed sender, uint256 indexed topicId, string name, string signature);
    event TopicSchemeRemoved(address indexed sender, uint256 indexed topicId, string name, string signature);

    error EmptyTopicName();
    error EmptyTopicSignature(string name);
    error TopicSchemeAlreadyExists(uint256 topicId, string name);
    error TopicSchemeNotFound(uint256 topicId, string name);
    error ArrayLengthMismatch(uint256 names, uint256 signatures);

    constructor() {
        _disableInitializers();
    }

    function initialize(address accessControl_) external initializer {
        _initAccess(accessControl_);
    }

    function registerTopicScheme(string calldata name, string calldata signature)
        external
        onlyRole(IdentityRoles.CLAIM_POLICY_MANAGER_ROLE)
        returns (uint256)
    {
        return _register(name, signature);
    }

    function batchRegisterTopicSchemes(string[] calldata names, string[] calldata signatures)
        external
        onlyRole(IdentityRoles.CLAIM_POLICY_MANAGER_ROLE)
    {
        if (names.length != signatures.length) revert ArrayLengthMismatch(names.length, signatures.length);
        for (uint256 i = 0; i < names.length; i++) {
            _register(names[i], signatures[i]);
        }
    }

    function updateTopicScheme(string calldata name, string calldata newSignature)
        external
        onlyRole(IdentityRoles.CLAIM_POLICY_MANAGER_ROLE)
    {
        uint256 topicId = _requireExisting(name);
        if (bytes(newSignature).length == 0) revert EmptyTopicSignature(name);
        _schemes[topicId].signature = newSignature;
        emit TopicSchemeUpdated(msg.sender, topicId, name, newSignature);
    }

    function removeTopicScheme(string calldata name) external onlyRole(IdentityRoles.CLAIM_POLICY_MANAGER_ROLE) {
        uint256 topicId = _requireExisting(name);
        string memory signature = _schemes[topicId].signature;
        uint256 index = _position[topicId] - 1;
        uint256 last = _topicIds[_topicIds.length - 1];
        _topicIds[index] = last;
        _position[last] = index + 1;
        _topicIds.pop();
        delete _position[topicId];
        delete _schemes[topicId];
        emit TopicSchemeRemoved(msg.sender, topicId, name, signature);
    }

    function getTopicId(string calldata name) public pure returns (uint256) {
        return uint256(keccak256(bytes(name)));
    }

    function hasTopicScheme(uint256 topicId) external view returns (bool) {
        return _position[topicId] != 0;
    }

    function hasTopicSchemeByName(string calldata name) external view returns (bool) {
        return _position[getTopicId(name)] != 0;
    }

    /// Reverts with TopicSchemeNotFound(topicId, "") for an unknown topic.
    function getTopicScheme(uint256 topicId) external view returns (string memory name, string memory signature) {
        if (_position[topicId] == 0) revert TopicSchemeNotFound(topicId, "");
        Scheme storage scheme = _schemes[topicId];
        return (scheme.name, scheme.signature);
    }

    function getAllTopicIds() external view returns (uint256[] memory) {
        return _topicIds;
    }

    function _register(string calldata name, string calldata signature) private returns (uint256 topicId) {
        if (bytes(name).length == 0) revert EmptyTopicName();
        if (bytes(signature).length == 0) revert EmptyTopicSignature(name);
        topicId = getTopicId(name);
        if (_position[topicId] != 0) revert TopicSchemeAlreadyExists(topicId, name);
        _schemes[topicId] = Scheme(name, signature);
        _topicIds.push(topicId);
        _position[topicId] = _topicIds.length;
        emit TopicSchemeRegistered(msg.sender, topicId, name, signature);
    }

    function _requireExisting(string calldata name) private view returns (uint256 topicId) {
        topicId = getTopicId(name);
        if (_position[topicId] == 0) revert TopicSchemeNotFound(topicId, name);
    }
}
