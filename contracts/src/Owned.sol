// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Single-owner guard for the dev-chain mintable tokens and price feeds: the deployer
/// (the devnet script's account) is the only one that may mint or move prices.
abstract contract Owned {
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    address public owner;

    constructor() {
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Owned: not owner");
        _;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }
}
