// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {IdentityAccess} from "./IdentityAccess.sol";
import {IdentityRoles} from "./IdentityRoles.sol";
import {ITrustedIssuersRegistry} from "./ITrustedIssuersRegistry.sol";

/// @notice Resolves the trusted issuers for a subject (e.g. a token): the system-wide registry's issuers
/// plus those of the subject's own registry, when it has one. Subject zero means system-wide only.
contract TrustedIssuersMetaRegistry is Initializable, IdentityAccess {
    address public systemRegistry;
    mapping(address subject => address registry) public subjectRegistry;

    event SystemTrustedIssuersRegistrySet(address indexed sender, address indexed registry);
    event SubjectTrustedIssuersRegistrySet(address indexed sender, address indexed subject, address indexed registry);

    constructor() {
        _disableInitializers();
    }

    function initialize(address accessControl_, address systemRegistry_) external initializer {
        _initAccess(accessControl_);
        _setSystemRegistry(systemRegistry_);
    }

    function setSystemRegistry(address registry) external onlyRole(IdentityRoles.SYSTEM_MANAGER_ROLE) {
        _setSystemRegistry(registry);
    }

    /// Sets (zero clears) `subject`'s own registry. Callable by a claim policy manager or by the subject
    /// itself (a token applies its own governance before calling).
    function setSubjectRegistry(address subject, address registry) external {
        if (subject == address(0)) revert ZeroAddress();
        if (msg.sender != subject) _checkRole(IdentityRoles.CLAIM_POLICY_MANAGER_ROLE, msg.sender);
        subjectRegistry[subject] = registry;
        emit SubjectTrustedIssuersRegistrySet(msg.sender, subject, registry);
    }

    /// System issuers first, then the subject's; an issuer trusted by both appears twice.
    function getTrustedIssuersForClaimTopic(address subject, uint256 topic) external view returns (address[] memory) {
        address[] memory fromSystem = _issuersOf(systemRegistry, topic);
        address[] memory fromSubject = _issuersOf(subject == address(0) ? address(0) : subjectRegistry[subject], topic);
        if (fromSubject.length == 0) return fromSystem;
        if (fromSystem.length == 0) return fromSubject;
        address[] memory all = new address[](fromSystem.length + fromSubject.length);
        for (uint256 i = 0; i < fromSystem.length; i++) {
            all[i] = fromSystem[i];
        }
        for (uint256 i = 0; i < fromSubject.length; i++) {
            all[fromSystem.length + i] = fromSubject[i];
        }
        return all;
    }

    function isTrustedIssuerFor(address subject, address issuer, uint256 topic) external view returns (bool) {
        address own = subject == address(0) ? address(0) : subjectRegistry[subject];
        return _trusts(systemRegistry, issuer, topic) || _trusts(own, issuer, topic);
    }

    function _setSystemRegistry(address registry) private {
        if (registry == address(0)) revert ZeroAddress();
        systemRegistry = registry;
        emit SystemTrustedIssuersRegistrySet(msg.sender, registry);
    }

    function _issuersOf(address registry, uint256 topic) private view returns (address[] memory) {
        if (registry == address(0)) return new address[](0);
        return ITrustedIssuersRegistry(registry).getTrustedIssuersForClaimTopic(topic);
    }

    function _trusts(address registry, address issuer, uint256 topic) private view returns (bool) {
        return registry != address(0) && ITrustedIssuersRegistry(registry).hasClaimTopic(issuer, topic);
    }
}
