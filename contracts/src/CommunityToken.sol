// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";

/// @notice The community token whose buybacks and burns the token ledger tracks: fixed supply
/// of 1,000,000,000 tokens (18 decimals), all minted to the deployer, no mint afterwards.
contract CommunityToken is ERC20 {
    uint256 public constant SUPPLY = 1_000_000_000 * 1e18;

    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {
        _mint(msg.sender, SUPPLY);
    }

    function decimals() public pure override returns (uint8) {
        return 18;
    }
}
