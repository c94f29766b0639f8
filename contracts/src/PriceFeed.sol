// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Owned} from "./Owned.sol";

/// @notice Chainlink AggregatorV3Interface stand-in for a stock token's USD price (8 decimals).
/// The owner moves the price (setAnswer) or back-dates it (setRound) so tests can exercise
/// stale and non-positive answers, which the service must treat as "no price".
contract PriceFeed is Owned {
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    string public description;
    uint80 private _roundId;
    int256 private _answer;
    uint256 private _startedAt;
    uint256 private _updatedAt;

    constructor(string memory description_, int256 initialAnswer) {
        description = description_;
        _record(initialAnswer, block.timestamp);
    }

    function decimals() external pure returns (uint8) {
        return 8;
    }

    function version() external pure returns (uint256) {
        return 4;
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (_roundId, _answer, _startedAt, _updatedAt, _roundId);
    }

    /// Only the latest round is kept; older ids revert like a feed without that round.
    function getRoundData(uint80 roundId_)
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        require(roundId_ == _roundId, "No data present");
        return (_roundId, _answer, _startedAt, _updatedAt, _roundId);
    }

    function latestAnswer() external view returns (int256) {
        return _answer;
    }

    function setAnswer(int256 answer) external onlyOwner {
        _record(answer, block.timestamp);
    }

    /// updatedAt is taken as given, e.g. hours in the past to make the feed stale.
    function setRound(int256 answer, uint256 updatedAt) external onlyOwner {
        _record(answer, updatedAt);
    }

    function _record(int256 answer, uint256 updatedAt) private {
        _roundId += 1;
        _answer = answer;
        _startedAt = updatedAt;
        _updatedAt = updatedAt;
        emit AnswerUpdated(answer, _roundId, updatedAt);
    }
}
