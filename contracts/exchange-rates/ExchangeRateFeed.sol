// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice One currency pair's rate in Chainlink's AggregatorV3 shape (decimals, description, version,
/// latestRoundData, getRoundData). Only the registry that created it writes it; each write is a new round
/// announced by Chainlink's `AnswerUpdated`, which carries everything the index keeps.
contract ExchangeRateFeed {
    /// `updatedAt` is when the provider's rate took effect (e.g. the ECB's reference date), not the block's time.
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    error OnlyRegistry(address caller);
    error InvalidAnswer(int256 answer);
    error NoDataPresent();

    struct Round {
        int256 answer;
        uint64 startedAt;
        uint64 updatedAt;
    }

    uint256 public constant version = 1;
    address public immutable registry;
    uint8 public immutable decimals;
    string public baseCurrency;
    string public quoteCurrency;
    uint80 public latestRound;
    mapping(uint80 roundId => Round) private _rounds;

    constructor(string memory baseCurrency_, string memory quoteCurrency_, uint8 decimals_) {
        registry = msg.sender;
        baseCurrency = baseCurrency_;
        quoteCurrency = quoteCurrency_;
        decimals = decimals_;
    }

    /// "EUR / USD": how many quote units one base unit buys.
    function description() external view returns (string memory) {
        return string.concat(baseCurrency, " / ", quoteCurrency);
    }

    function updateAnswer(int256 answer, uint256 effectiveAt) external returns (uint80 roundId) {
        if (msg.sender != registry) revert OnlyRegistry(msg.sender);
        if (answer <= 0) revert InvalidAnswer(answer);
        roundId = latestRound + 1;
        latestRound = roundId;
        _rounds[roundId] = Round(answer, uint64(block.timestamp), uint64(effectiveAt));
        emit AnswerUpdated(answer, roundId, effectiveAt);
    }

    function latestAnswer() external view returns (int256) {
        return _rounds[latestRound].answer;
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId_)
        public
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round storage round = _rounds[roundId_];
        if (round.startedAt == 0) revert NoDataPresent();
        return (roundId_, round.answer, round.startedAt, round.updatedAt, roundId_);
    }
}
