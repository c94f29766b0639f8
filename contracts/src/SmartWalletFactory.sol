// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SmartWallet} from "./SmartWallet.sol";

/// @notice CREATE2 factory for SmartWallet: a wallet's address is known before it exists,
/// which is what EIP-6492 signatures rely on (their factory calldata is deploy(owner, salt)).
contract SmartWalletFactory {
    event WalletDeployed(address indexed wallet, address indexed owner, bytes32 salt);

    /// Idempotent: returns the existing wallet if it is already deployed, so a 6492 validator
    /// (or anyone) may call it again without reverting.
    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        wallet = getAddress(owner, salt);
        if (wallet.code.length > 0) return wallet;
        SmartWallet w = new SmartWallet{salt: _salt(owner, salt)}(owner);
        require(address(w) == wallet, "SmartWalletFactory: address mismatch");
        emit WalletDeployed(wallet, owner, salt);
    }

    function getAddress(address owner, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(SmartWallet).creationCode, abi.encode(owner)));
        return address(
            uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), _salt(owner, salt), initCodeHash))))
        );
    }

    /// The owner is folded into the salt so one (owner, salt) pair maps to one wallet.
    function _salt(address owner, bytes32 salt) private pure returns (bytes32) {
        return keccak256(abi.encode(owner, salt));
    }
}
