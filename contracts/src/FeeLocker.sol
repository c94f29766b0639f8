// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20Balance {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}

/// @notice Launch-platform style LP-fee locker: records which pool it serves, who the creator
/// is and the creator's share of the LP fees in basis points (of 10,000), which the token
/// ledger reads to split fees. Fees sent here can be claimed by the creator.
contract FeeLocker {
    event Claimed(address indexed token, address indexed creator, uint256 amount);

    address public immutable pool;
    address public immutable creator;
    uint256 public immutable creatorShareBps;

    constructor(address pool_, address creator_, uint256 creatorShareBps_) {
        require(creatorShareBps_ <= 10_000, "FeeLocker: bps > 10000");
        pool = pool_;
        creator = creator_;
        creatorShareBps = creatorShareBps_;
    }

    function claim(address token) external {
        require(msg.sender == creator, "FeeLocker: not creator");
        uint256 amount = IERC20Balance(token).balanceOf(address(this));
        require(IERC20Balance(token).transfer(creator, amount), "FeeLocker: transfer failed");
        emit Claimed(token, creator, amount);
    }
}
