// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";
import {Owned} from "./Owned.sol";

/// @notice Dev-chain stand-in for Global Dollar (USDG), the payment asset: same name, symbol
/// and 6 decimals as on Robinhood Chain, plus an owner-only mint to fund test wallets.
contract USDG is ERC20, Owned {
    constructor() ERC20("Global Dollar", "USDG") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
