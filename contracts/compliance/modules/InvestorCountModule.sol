// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {ComplianceModuleBase} from "./ComplianceModuleBase.sol";

/// @notice investor-count-v2: caps the number of holders (non-zero balances), in total and/or per
/// registry country. params: abi.encode(uint256 maxInvestors, uint16[] countries, uint256[] countryLimits)
/// (maxInvestors 0 = no total cap; countries ISO 3166-1 numeric with a limit > 0 each; at least one cap).
/// A holder is counted, under its country at that moment, when a hook sees its balance become
/// non-zero, and uncounted when it becomes zero, so counting starts when the module is added (add it
/// before the first mint). Mints and transfers to a new holder are checked (a sender leaving with its
/// whole balance frees its place); burns pass and free places.
contract InvestorCountModule is ComplianceModuleBase {
    uint256 public constant MAX_COUNTRY_LIMITS = 256;

    mapping(address token => uint256) public maxInvestorsOf;
    mapping(address token => uint256) private _limitsVersion;
    mapping(bytes32 key => uint256) private _countryLimit;
    mapping(bytes32 scope => uint256) private _total;
    mapping(bytes32 key => uint256) private _perCountry;
    /// Country the holder was counted under, plus one (0 = not counted).
    mapping(bytes32 key => uint256) private _countedAs;

    error NoLimitSet();
    error LengthMismatch(uint256 countries, uint256 limits);
    error TooManyCountryLimits(uint256 count, uint256 max);
    error InvalidCountryCode(uint256 index, uint16 code);
    error DuplicateCountry(uint256 index);
    error ZeroCountryLimit(uint256 index);

    function typeId() public pure virtual override returns (string memory) {
        return "investor-count-v2";
    }

    function check(address token, address from, address to, uint256 amount)
        external
        view
        returns (bool allowed, string memory reason)
    {
        if (to == address(0) || amount == 0 || from == to) return (true, "");
        bytes32 scope = _scope(token);
        if (_countedAs[_holderKey(scope, to)] != 0) return (true, "");
        // A sender handing over its whole balance leaves, freeing its place (and its country's).
        uint256 leavingAs = 0;
        if (from != address(0) && IERC20(token).balanceOf(from) == amount) {
            leavingAs = _countedAs[_holderKey(scope, from)];
        }
        uint256 maxInvestors = maxInvestorsOf[token];
        if (maxInvestors != 0 && leavingAs == 0 && _total[scope] >= maxInvestors) {
            return (false, string.concat("max investors ", Strings.toString(maxInvestors), " reached"));
        }
        uint16 country = _countryOf(to);
        uint256 limit = _countryLimit[_limitKey(token, country)];
        if (limit != 0 && leavingAs != uint256(country) + 1 && _perCountry[_countryKey(scope, country)] >= limit) {
            return (
                false,
                string.concat(
                    "max investors ", Strings.toString(limit), " reached for country ", Strings.toString(country)
                )
            );
        }
        return (true, "");
    }

    /// Holders counted since the module was added: in total, and for one country.
    function investorCount(address token, uint16 country) external view returns (uint256 total, uint256 inCountry) {
        bytes32 scope = _scope(token);
        return (_total[scope], _perCountry[_countryKey(scope, country)]);
    }

    function countryLimitOf(address token, uint16 country) external view returns (uint256) {
        return _countryLimit[_limitKey(token, country)];
    }

    function _configure(address token, bytes calldata params) internal override {
        (uint256 maxInvestors, uint16[] memory countries, uint256[] memory limits) =
            abi.decode(params, (uint256, uint16[], uint256[]));
        if (countries.length != limits.length) revert LengthMismatch(countries.length, limits.length);
        if (maxInvestors == 0 && countries.length == 0) revert NoLimitSet();
        if (countries.length > MAX_COUNTRY_LIMITS) revert TooManyCountryLimits(countries.length, MAX_COUNTRY_LIMITS);
        maxInvestorsOf[token] = maxInvestors;
        _limitsVersion[token] += 1;
        for (uint256 i = 0; i < countries.length; i++) {
            if (countries[i] == 0 || countries[i] > 999) revert InvalidCountryCode(i, countries[i]);
            if (limits[i] == 0) revert ZeroCountryLimit(i);
            bytes32 key = _limitKey(token, countries[i]);
            if (_countryLimit[key] != 0) revert DuplicateCountry(i);
            _countryLimit[key] = limits[i];
        }
    }

    function _clear(address token) internal override {
        delete maxInvestorsOf[token];
        _limitsVersion[token] += 1;
    }

    function _afterTransfer(address token, address from, address to, uint256) internal override {
        bytes32 scope = _scope(token);
        _sync(token, scope, from);
        _sync(token, scope, to);
    }

    /// Counts or uncounts `holder` from its balance after the change.
    function _sync(address token, bytes32 scope, address holder) private {
        if (holder == address(0)) return;
        bytes32 key = _holderKey(scope, holder);
        uint256 countedAs = _countedAs[key];
        uint256 balance = IERC20(token).balanceOf(holder);
        if (countedAs == 0 && balance != 0) {
            uint16 country = _countryOf(holder);
            _countedAs[key] = uint256(country) + 1;
            _total[scope] += 1;
            _perCountry[_countryKey(scope, country)] += 1;
        } else if (countedAs != 0 && balance == 0) {
            delete _countedAs[key];
            _total[scope] -= 1;
            _perCountry[_countryKey(scope, uint16(countedAs - 1))] -= 1;
        }
    }

    function _limitKey(address token, uint16 country) private view returns (bytes32) {
        return keccak256(abi.encode(token, _limitsVersion[token], country));
    }

    function _holderKey(bytes32 scope, address holder) private pure returns (bytes32) {
        return keccak256(abi.encode(scope, holder));
    }

    function _countryKey(bytes32 scope, uint16 country) private pure returns (bytes32) {
        return keccak256(abi.encode(scope, country));
    }
}
