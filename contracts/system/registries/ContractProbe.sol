// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Gas-bounded static calls into contracts we do not trust. Never reverts: a missing function,
/// a revert or malformed return data all read as "absent", so a hostile contract cannot block a caller.
library ContractProbe {
    uint256 internal constant PROBE_GAS = 100_000;

    function probe(address target, bytes memory data) internal view returns (bool ok, bytes memory result) {
        (ok, result) = target.staticcall{gas: PROBE_GAS}(data);
    }

    /// Whether `selector()` answers with at least one ABI word (a static value).
    function answersWord(address target, bytes4 selector) internal view returns (bool) {
        return answersWord(target, abi.encodeWithSelector(selector));
    }

    /// Whether the call `data` answers with at least one ABI word.
    function answersWord(address target, bytes memory data) internal view returns (bool) {
        (bool ok, bytes memory result) = probe(target, data);
        return ok && result.length >= 32;
    }

    /// Whether `selector()` answers with a well-formed dynamic value (head offset 32, then a length).
    function answersDynamic(address target, bytes4 selector) internal view returns (bool) {
        (bool ok, bytes memory result) = probe(target, abi.encodeWithSelector(selector));
        return ok && result.length >= 64 && _word(result, 0) == 32;
    }

    function readUint(address target, bytes memory data) internal view returns (bool found, uint256 value) {
        (bool ok, bytes memory result) = probe(target, data);
        if (!ok || result.length < 32) return (false, 0);
        return (true, _word(result, 0));
    }

    /// ERC-165 check; false for contracts without `supportsInterface`.
    function supportsInterface(address target, bytes4 interfaceId) internal view returns (bool) {
        (bool ok, bytes memory result) =
            target.staticcall{gas: 30_000}(abi.encodeWithSelector(0x01ffc9a7, interfaceId));
        return ok && result.length >= 32 && _word(result, 0) == 1;
    }

    /// A string getter answered either as an ABI string or as a bytes32 (older tokens); "" otherwise.
    function readString(address target, bytes4 selector) internal view returns (string memory) {
        (bool ok, bytes memory result) = probe(target, abi.encodeWithSelector(selector));
        if (!ok) return "";
        if (result.length == 32) return _bytes32ToString(bytes32(_word(result, 0)));
        if (result.length < 64) return "";
        uint256 offset = _word(result, 0);
        if (offset > result.length - 32) return "";
        uint256 length = _word(result, offset);
        if (length > result.length - 32 - offset) return "";
        bytes memory out = new bytes(length);
        for (uint256 i = 0; i < length; i++) {
            out[i] = result[offset + 32 + i];
        }
        return string(out);
    }

    function _word(bytes memory data, uint256 offset) private pure returns (uint256 value) {
        assembly ("memory-safe") {
            value := mload(add(add(data, 32), offset))
        }
    }

    function _bytes32ToString(bytes32 value) private pure returns (string memory) {
        uint256 length = 0;
        while (length < 32 && value[length] != 0) length++;
        bytes memory out = new bytes(length);
        for (uint256 i = 0; i < length; i++) {
            out[i] = value[i];
        }
        return string(out);
    }
}
