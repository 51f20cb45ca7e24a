// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The spec's feature ids, the keys of the feature-type registry and of the rule table.
library FeatureIds {
    string internal constant HISTORICAL_BALANCES = "historical-balances";
    string internal constant MATURITY_REDEMPTION = "maturity-redemption";
    string internal constant FIXED_TREASURY_YIELD = "fixed-treasury-yield";
    string internal constant VOTING_POWER = "voting-power";
    string internal constant AUM_FEE = "aum-fee";
    string internal constant TRANSACTION_FEE = "transaction-fee";
    string internal constant TRANSACTION_FEE_ACCOUNTING = "transaction-fee-accounting";
    string internal constant EXTERNAL_TRANSACTION_FEE = "external-transaction-fee";
    string internal constant CONVERSION = "conversion";
    string internal constant CONVERSION_MINTER = "conversion-minter";
    string internal constant PERMIT = "permit";

    function one(string memory id) internal pure returns (string[] memory ids) {
        ids = new string[](1);
        ids[0] = id;
    }
}
