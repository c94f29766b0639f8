// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";
import {Owned} from "./Owned.sol";

/// @notice A tokenized stock (NVDA, TSLA, …): a plain 18-decimal ERC-20. The owner mints so
/// tests can make a wallet hold (or not hold) the company's stock before an audit.
contract StockToken is ERC20, Owned {
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {}

    function decimals() public pure override returns (uint8) {
        return 18;
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
