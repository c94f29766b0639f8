// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "./ECDSA.sol";

/// @notice A wallet as many deployed before ERC-7739 are: ERC-1271 accepts its owner's plain
/// signature over the bare hash, so an owner's signature for its own key (or another of its
/// wallets) is this wallet's too. The devnet deploys none; tests deploy it to show the
/// service refuses such a wallet's ECDSA-shaped permits (`signature::verify_payer`).
contract BareHashWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        address signer = ECDSA.recover(hash, signature);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    function execute(address to, uint256 value, bytes calldata data) external returns (bytes memory result) {
        require(msg.sender == owner, "BareHashWallet: not owner");
        bool ok;
        (ok, result) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 0x20), mload(result))
            }
        }
    }
}
